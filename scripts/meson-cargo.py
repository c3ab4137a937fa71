#!/usr/bin/env python3
"""Builds libgpucc with cargo for Meson and copies the libraries into Meson's build directory.

Meson calls this from a custom_target (see meson.build). Cargo decides what needs rebuilding;
the target directory is $CARGO_TARGET_DIR when set (so CI can share one build between
`cargo test --release` and Meson), else a directory inside Meson's build tree.
"""

import argparse
import os
import shutil
import subprocess
import sys


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cargo", required=True)
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--target-dir", required=True)
    ap.add_argument("--release", action="store_true")
    ap.add_argument("outputs", nargs="+", help="library files to produce (basenames decide which)")
    args = ap.parse_args()

    target_dir = os.environ.get("CARGO_TARGET_DIR") or args.target_dir
    # The library, and the `gpucc` command when an output asks for it.
    cmd = [args.cargo, "build", "--lib", "--manifest-path", args.manifest, "--target-dir", target_dir]
    if args.release:
        cmd.append("--release")
    if any(os.path.basename(o) == "gpucc" for o in args.outputs):
        cmd += ["--bin", "gpucc"]
    proc = subprocess.run(cmd)
    if proc.returncode != 0:
        return proc.returncode

    profile_dir = os.path.join(target_dir, "release" if args.release else "debug")
    for out in args.outputs:
        name = os.path.basename(out)
        # Cargo names the shared library libgpucc.so; Meson's output carries the version.
        if name.startswith("libgpucc.so."):
            name = "libgpucc.so"
        src = os.path.join(profile_dir, name)
        if not os.path.isfile(src):
            print(f"meson-cargo: cargo did not produce {src}", file=sys.stderr)
            return 1
        # Copy only when changed so Meson does not relink dependents needlessly.
        if not os.path.exists(out) or os.path.getmtime(out) < os.path.getmtime(src):
            shutil.copy2(src, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
