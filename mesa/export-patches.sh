#!/usr/bin/env bash
# Writes the patch series back from a Mesa tree that mesa/build.sh made: every commit after
# the tag gpucc-base (the unpacked tarball) becomes one file of mesa/patches, replacing what
# is there. Edit and commit in DIR/src (git commit, or git rebase -i to change a patch), then
# run this and commit the patches here.
#
#   mesa/export-patches.sh [--dir DIR]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
dir="${GPUCC_MESA_DIR:-$(dirname "$repo")/mesa-build}"
[ "${1:-}" = "--dir" ] && dir="$2"
src="$dir/src"
git -C "$src" rev-parse -q --verify gpucc-base >/dev/null ||
  { echo "$0: $src has no gpucc-base tag (make it with mesa/build.sh --fresh)" >&2; exit 1; }
if [ -n "$(git -C "$src" status --porcelain --untracked-files=no)" ]; then
  echo "$0: $src has uncommitted changes; commit them first" >&2
  exit 1
fi
rm -f "$here"/patches/*.patch
git -C "$src" format-patch -q --no-signature --zero-commit -o "$here/patches" gpucc-base..HEAD
ls "$here"/patches
