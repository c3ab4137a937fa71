#!/usr/bin/env python3
"""Builds libgpucc with cargo for Meson and copies its outputs into Meson's build directory.

Meson calls this from a custom_target (see meson.build) with the cargo target directory it fixed
at configure time. Cargo decides what needs rebuilding; this script also writes a depfile for
Ninja from cargo's dep-info, so Ninja calls it again only when a file cargo read has changed.
"""

import argparse
import os
import shutil
import subprocess
import sys


def dep_info_paths(path):
    """The prerequisites listed in one of cargo's `.d` files (make syntax, `\\ ` for spaces)."""
    deps = []
    try:
        text = open(path, encoding="utf-8").read()
    except OSError:
        return deps
    for line in text.splitlines():
        if ": " not in line:
            continue
        rest = line.split(": ", 1)[1]
        word = ""
        i = 0
        while i < len(rest):
            ch = rest[i]
            if ch == "\\" and i + 1 < len(rest) and rest[i + 1] == " ":
                word += " "
                i += 2
                continue
            if ch == " ":
                if word:
                    deps.append(word)
                word = ""
            else:
                word += ch
            i += 1
        if word:
            deps.append(word)
    return deps


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cargo", required=True)
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--target-dir", required=True)
    ap.add_argument("--depfile")
    ap.add_argument("--release", action="store_true")
    ap.add_argument("outputs", nargs="+", help="files to produce (basenames decide which)")
    args = ap.parse_args()

    base = [args.cargo, "build", "--manifest-path", args.manifest,
            "--target-dir", args.target_dir]
    if args.release:
        base.append("--release")
    # The command needs the default features (clap, the test rig); the library a driver links
    # has none. Cargo unifies features within one invocation, so the command is built first
    # and the library last: the library files copied below are the driver's.
    cmds = []
    if any(os.path.basename(o) == "gpucc" for o in args.outputs):
        cmds.append(base + ["--bin", "gpucc"])
    cmds.append(base + ["--lib", "--no-default-features"])
    # The directory is explicit, so a CARGO_TARGET_DIR of the calling shell must not matter.
    env = dict(os.environ)
    env.pop("CARGO_TARGET_DIR", None)
    for cmd in cmds:
        proc = subprocess.run(cmd, env=env)
        if proc.returncode != 0:
            return proc.returncode

    profile_dir = os.path.join(args.target_dir, "release" if args.release else "debug")
    for out in args.outputs:
        src = os.path.join(profile_dir, os.path.basename(out))
        if not os.path.isfile(src):
            print(f"meson-cargo: cargo did not produce {src}", file=sys.stderr)
            return 1
        # Copy only when changed so Meson does not relink dependents needlessly.
        if not os.path.exists(out) or os.path.getmtime(out) < os.path.getmtime(src):
            shutil.copy2(src, out)

    if args.depfile:
        root = os.path.dirname(os.path.abspath(args.manifest))
        deps = {os.path.join(root, f) for f in ("Cargo.toml", "Cargo.lock", "build.rs",
                                                "cbindgen.toml")}
        for name in ("libgpucc.d", "gpucc.d"):
            deps.update(dep_info_paths(os.path.join(profile_dir, name)))
        # Generated files under the target directory are cargo's business, not Ninja's.
        deps = sorted(d for d in deps if os.path.exists(d)
                      and not os.path.abspath(d).startswith(os.path.abspath(args.target_dir)))
        esc = lambda p: p.replace("\\", "\\\\").replace(" ", "\\ ").replace("$", "$$")
        with open(args.depfile, "w", encoding="utf-8") as f:
            f.write(esc(args.outputs[0]) + ": " + " \\\n  ".join(esc(d) for d in deps) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
