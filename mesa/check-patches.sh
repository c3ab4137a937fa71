#!/usr/bin/env bash
# Checks that mesa/patches still apply, in order, to the Mesa 23.3.6 tarball (CI runs this;
# the Mesa build itself is too long for CI). Unpacks into a temporary folder.
#
#   mesa/check-patches.sh [--tarball FILE]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
tarball="$(dirname "$repo")/shared/mesa/mesa-23.3.6.tar.xz"
[ "${1:-}" = "--tarball" ] && tarball="$2"
[ -f "$tarball" ] || { echo "$0: Mesa tarball not found at $tarball" >&2; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# Only the files the patches touch are needed: list the tarball once, unpack those.
tar -tJf "$tarball" > "$tmp/list"
top=$(sed -n '1s|/.*||p' "$tmp/list")
members=()
for f in $(grep -h '^--- a/\|^+++ b/' "$here"/patches/*.patch | sed 's|^[-+]* [ab]/||' | sort -u); do
  grep -qxF "$top/$f" "$tmp/list" && members+=("$top/$f")
done
[ ${#members[@]} -eq 0 ] || tar -xJf "$tarball" -C "$tmp" "${members[@]}"
mkdir -p "$tmp/$top"
n=0
for p in "$here"/patches/*.patch; do
  [ -e "$p" ] || continue
  if ! patch -d "$tmp/$top" -p1 --forward --quiet --fuzz=0 --no-backup-if-mismatch < "$p"; then
    echo "$0: $(basename "$p") does not apply to $(basename "$tarball")" >&2
    exit 1
  fi
  n=$((n + 1))
done
echo "mesa/check-patches.sh: $n patches apply to $(basename "$tarball")"
