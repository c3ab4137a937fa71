#!/usr/bin/env bash
# Builds Mesa 23.3.6 (the Mesa the shared corpus came from) with gpucc inside: the patches in
# mesa/patches add a Meson option (-Dgpucc=enabled, set here) that builds this checkout as
# Mesa's subproject subprojects/gpucc, and the drivers' adapters that hand shaders to it.
# Built: crocus (Gen4-7.5), iris (Gen8+) and etnaviv, Mesa's drm-shim so they run without a
# GPU (the Intel noop shim comes with Mesa's Intel tools), and Mesa's etnaviv_compiler tool
# (TGSI in, one etnaviv variant out).
#
#   mesa/build.sh [--dir DIR] [--tarball FILE] [--deps] [--jobs N] [--fresh] [--shader-db SRC]
#
# DIR (default: ../mesa-build beside this checkout, or $GPUCC_MESA_DIR) receives the unpacked
# source (DIR/src, a git repository: the tarball as one commit, then one commit per patch, so
# mesa/export-patches.sh can write edited patches back), the Meson build (DIR/build), the
# install (DIR/prefix) and build.log. It lives outside the repository: a first build takes
# 15-30 minutes on 2 cores and may outlive a session. Rerunning reuses DIR/build (ninja
# rebuilds what changed, gpucc included); --fresh unpacks and patches again.
# --shader-db SRC builds shader-db's `run` from the checkout SRC into DIR/shader-db (for
# mesa/shader-db.sh). --deps installs the Debian packages and Python's mako that the build
# needs (root, network to the package registries). Never part of .ci/run (mesa/check-patches.sh
# is: it checks that the patches apply to the tarball).
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
dir="${GPUCC_MESA_DIR:-$(dirname "$repo")/mesa-build}"
tarball="$(dirname "$repo")/shared/mesa/mesa-23.3.6.tar.xz"
deps=0 fresh=0 jobs="$(nproc)" shaderdb=""
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="$2"; shift 2 ;;
    --tarball) tarball="$2"; shift 2 ;;
    --deps) deps=1; shift ;;
    --jobs) jobs="$2"; shift 2 ;;
    --fresh) fresh=1; shift ;;
    --shader-db) shaderdb="$2"; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "$0: unknown argument $1" >&2; exit 2 ;;
  esac
done

if [ "$deps" = 1 ]; then
  apt-get install -y --no-install-recommends meson ninja-build bison flex pkg-config \
    libdrm-dev libexpat1-dev zlib1g-dev libzstd-dev libglvnd-dev libx11-dev libxext-dev \
    libxfixes-dev libxcb-glx0-dev libxcb-shm0-dev libx11-xcb-dev libxcb-dri2-0-dev \
    libxcb-dri3-dev libxcb-present-dev libxshmfence-dev libxxf86vm-dev libxrandr-dev \
    libelf-dev glslang-tools libepoxy-dev libgbm-dev
  # python3 may not be Debian's (pyenv here), so Debian's python3-mako is not seen by it.
  python3 -m pip install --quiet mako
fi

if [ ! -f "$tarball" ]; then
  echo "$0: Mesa tarball not found at $tarball (pass --tarball)" >&2
  exit 1
fi
python3 -c 'import mako' 2>/dev/null || { echo "$0: python3 lacks mako (run with --deps)" >&2; exit 1; }

mkdir -p "$dir"
dir="$(cd "$dir" && pwd)"
case "$dir/" in
  "$repo"/*) echo "$0: $dir is inside the repository; build Mesa outside it" >&2; exit 1 ;;
esac
log="$dir/build.log"
start=$(date +%s)

if [ "$fresh" = 1 ] || [ ! -d "$dir/src" ]; then
  rm -rf "$dir/src" "$dir/build"
  mkdir -p "$dir/src"
  tar -xJf "$tarball" -C "$dir/src" --strip-components=1
  git() { command git -C "$dir/src" -c user.name=gpucc -c user.email=gpucc@localhost "$@"; }
  git init -q
  git add -A
  git commit -q -m "Mesa 23.3.6 as unpacked from $(basename "$tarball")"
  git tag gpucc-base
  for p in "$here"/patches/*.patch; do
    [ -e "$p" ] || continue
    echo "applying $(basename "$p")" | tee -a "$log"
    git am -q --committer-date-is-author-date "$p"
  done
  unset -f git
fi
# The subproject is this checkout itself: Mesa's build runs cargo on it.
ln -sfn "$repo" "$dir/src/subprojects/gpucc"

tools=drm-shim,etnaviv,intel
if [ ! -f "$dir/build/build.ninja" ]; then
  meson setup "$dir/build" "$dir/src" --prefix "$dir/prefix" \
    -Dgallium-drivers=crocus,iris,etnaviv,swrast -Dvulkan-drivers= -Dllvm=disabled \
    -Dtools="$tools" -Dglvnd=true -Dplatforms=x11 -Dbuildtype=release \
    -Dvalgrind=disabled -Dlibunwind=disabled -Dgles1=disabled -Dgpucc=enabled 2>&1 | tee -a "$log"
elif ! meson introspect --buildoptions "$dir/build" 2>/dev/null |
       python3 -c 'import json,sys; o=json.load(sys.stdin); sys.exit(0 if any(x["name"]=="gpucc" and x["value"]=="enabled" for x in o) else 1)'; then
  # A build configured before the gpucc option: enabling it rebuilds the adapters' drivers.
  meson configure "$dir/build" -Dgpucc=enabled 2>&1 | tee -a "$log"
elif ! meson introspect --buildoptions "$dir/build" 2>/dev/null |
       python3 -c 'import json,sys; o=json.load(sys.stdin); t=[x["value"] for x in o if x["name"]=="tools"][0]; sys.exit(0 if "etnaviv" in t and "intel" in t else 1)'; then
  # A build configured before a tool was added: adding a tool builds only the tool.
  meson configure "$dir/build" -Dtools="$tools" 2>&1 | tee -a "$log"
fi
if ! ninja -C "$dir/build" -j "$jobs" >> "$log" 2>&1; then
  tail -n 40 "$log" >&2
  echo "$0: the Mesa build failed; the whole log is $log" >&2
  exit 1
fi
ninja -C "$dir/build" install > /dev/null
if [ -n "$shaderdb" ]; then
  mkdir -p "$dir/shader-db"
  cp "$shaderdb/run.c" "$shaderdb/Makefile" "$dir/shader-db/"
  make -C "$dir/shader-db" run >> "$log" 2>&1
fi
end=$(date +%s)
echo "mesa/build.sh: built and installed into $dir/prefix in $((end - start)) s" | tee -a "$log"
