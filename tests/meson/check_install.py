#!/usr/bin/env python3
"""Meson test: the shared library's SONAME carries the major version, and an install
(`meson install --destdir`) holds what a driver build needs: the gpucc command, the header,
gpucc.pc (found by pkg-config through PKG_CONFIG_PATH) and the versioned library with its
links."""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print(f"FAIL: {what}", file=sys.stderr)


def soname(readelf, path):
    out = subprocess.run([readelf, "-d", path], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        if "(SONAME)" in line:
            return line.split("[", 1)[1].rstrip("]")
    return None


def sanitize_flags(build_dir):
    """The -fsanitize= flag of the Meson build in build_dir (b_sanitize), or none."""
    path = os.path.join(build_dir, "meson-info", "intro-buildoptions.json")
    try:
        options = json.load(open(path, encoding="utf-8"))
    except (OSError, ValueError):
        return []
    for opt in options:
        if opt.get("name") == "b_sanitize":
            value = opt.get("value")
            names = value if isinstance(value, list) else str(value).split(",")
            names = [n.strip() for n in names if n.strip() and n.strip() != "none"]
            return [f"-fsanitize={','.join(names)}"] if names else []
    return []


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--meson", required=True)
    ap.add_argument("--readelf", default="")
    ap.add_argument("--prefix", required=True)
    ap.add_argument("--libdir", required=True)
    ap.add_argument("--bindir", required=True)
    ap.add_argument("--includedir", required=True)
    ap.add_argument("--version", required=True)
    args = ap.parse_args()
    major = args.version.split(".")[0]
    real = f"libgpucc.so.{args.version}"

    built = os.path.join(args.build_dir, real)
    if args.readelf:
        check(soname(args.readelf, built) == f"libgpucc.so.{major}",
              f"{built} has SONAME libgpucc.so.{major}")

    def under(root, d):
        d = d if os.path.isabs(d) else os.path.join(args.prefix, d)
        return root + d

    with tempfile.TemporaryDirectory(prefix="gpucc-install-") as dest:
        subprocess.run([args.meson, "install", "-C", args.build_dir, "--destdir", dest,
                        "--no-rebuild", "--quiet"], check=True)
        bindir = under(dest, args.bindir)
        libdir = under(dest, args.libdir)
        incdir = under(dest, args.includedir)
        gpucc = os.path.join(bindir, "gpucc")
        check(os.path.isfile(gpucc) and os.access(gpucc, os.X_OK), f"{gpucc} is installed and executable")
        if os.access(gpucc, os.X_OK):
            out = subprocess.run([gpucc, "targets"], capture_output=True, text=True)
            check(out.returncode == 0 and "ivb" in out.stdout, "installed gpucc lists its targets")
        header = os.path.join(incdir, "gpucc.h")
        check(os.path.isfile(header), f"{header} is installed")
        if os.path.isfile(header):
            text = open(header).read()
            check("NIR as Mesa's brw receives it" in text and "etnaviv" in text,
                  "the header says which NIR form each family expects")
        check(os.path.isfile(os.path.join(libdir, "libgpucc.a")), "libgpucc.a is installed")
        lib_real = os.path.join(libdir, real)
        check(os.path.isfile(lib_real) and not os.path.islink(lib_real), f"{lib_real} is installed")
        check(os.readlink(os.path.join(libdir, f"libgpucc.so.{major}")) == real
              if os.path.islink(os.path.join(libdir, f"libgpucc.so.{major}")) else False,
              f"libgpucc.so.{major} links to {real}")
        check(os.readlink(os.path.join(libdir, "libgpucc.so")) == f"libgpucc.so.{major}"
              if os.path.islink(os.path.join(libdir, "libgpucc.so")) else False,
              f"libgpucc.so links to libgpucc.so.{major}")
        if args.readelf and os.path.isfile(lib_real):
            check(soname(args.readelf, lib_real) == f"libgpucc.so.{major}",
                  f"installed {real} has SONAME libgpucc.so.{major}")
        pcdir = os.path.join(libdir, "pkgconfig")
        pc = os.path.join(pcdir, "gpucc.pc")
        check(os.path.isfile(pc), f"{pc} is installed")
        pkg_config = shutil.which("pkg-config")
        if pkg_config and os.path.isfile(pc):
            env = dict(os.environ, PKG_CONFIG_PATH=pcdir)
            out = subprocess.run([pkg_config, "--modversion", "gpucc"], env=env,
                                 capture_output=True, text=True)
            check(out.stdout.strip() == args.version,
                  f"pkg-config with PKG_CONFIG_PATH={pcdir} finds gpucc {args.version}")

        # A program linked against the installed shared library, as README's Meson section
        # links a driver, starts and runs: it finds libgpucc.so.MAJOR through its rpath.
        cc = shutil.which(os.environ.get("CC", "cc"))
        if cc and os.path.isfile(lib_real):
            src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "c", "version.c")
            exe = os.path.join(dest, "version-installed")
            # Under -Db_sanitize the library carries the sanitizer runtime's references, so
            # the program is built with the same flags (as a driver in that build would be).
            sanitize = sanitize_flags(args.build_dir)
            build = subprocess.run([cc, "-std=c11", *sanitize, src, f"-I{incdir}",
                                    f"-I{os.path.dirname(src)}", f"-L{libdir}", "-lgpucc",
                                    f"-Wl,-rpath,{libdir}", "-o", exe],
                                   capture_output=True, text=True)
            check(build.returncode == 0, f"a C program links against {libdir}/libgpucc.so"
                  + (f": {build.stderr.strip()}" if build.returncode else ""))
            if build.returncode == 0:
                run = subprocess.run([exe], capture_output=True, text=True)
                check(run.returncode == 0, "the program linked against the install starts and "
                      f"runs (rc {run.returncode}: {run.stderr.strip()})")
                if args.readelf:
                    dyn = subprocess.run([args.readelf, "-d", exe], capture_output=True,
                                         text=True).stdout
                    check(f"[libgpucc.so.{major}]" in dyn,
                          f"the program records libgpucc.so.{major}, not the unversioned name")

    if failures:
        print(f"check_install: {len(failures)} check(s) failed", file=sys.stderr)
        return 1
    print("check_install: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
