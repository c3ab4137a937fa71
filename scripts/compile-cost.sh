#!/usr/bin/env bash
# Compile cost in instructions, measured with callgrind: how many instructions
# gpucc::compiler::Compiler::compile executes per compiled program (parsing and validation
# excluded: only instructions inside Compiler::compile are collected), followed by the
# wall-clock figures of `gpucc bench compile` for the same files, so that a change can be
# compared before and after in one run.
#
#   scripts/compile-cost.sh --target ivb ../shared/corpus/nir/ivb [--stage fs] [--runs 3]
#
# --stage keeps only files named *.STAGE.nir (fs, vs, cs). Needs valgrind (apt-get install
# valgrind) and a release build (the script runs `cargo build --release` first).
set -euo pipefail

target="" dir="" stage="" runs=3
while [ $# -gt 0 ]; do
  case "$1" in
    --target) target="$2"; shift 2 ;;
    --stage) stage="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) dir="$1"; shift ;;
  esac
done
if [ -z "$target" ] || [ -z "$dir" ]; then
  echo "usage: $0 --target NAME DIR [--stage fs|vs|cs] [--runs N]" >&2
  exit 2
fi
if [ ! -d "$dir" ]; then
  echo "$0: $dir is not a directory" >&2
  exit 1
fi
command -v valgrind >/dev/null || { echo "$0: valgrind is not installed" >&2; exit 1; }

root="$(cd "$(dirname "$0")/.." && pwd)"
cargo build --release --quiet --manifest-path "$root/Cargo.toml"
gpucc="${CARGO_TARGET_DIR:-$root/target}/release/gpucc"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The selected files, as links in one directory.
mkdir "$work/in"
pattern='*.nir'
[ -n "$stage" ] && pattern="*.$stage.nir"
n=0
while IFS= read -r -d '' f; do
  ln -s "$(cd "$(dirname "$f")" && pwd)/$(basename "$f")" "$work/in/$n-$(basename "$f")"
  n=$((n + 1))
done < <(find "$dir" -name "$pattern" -print0 | sort -z)
if [ "$n" -eq 0 ]; then
  echo "$0: no $pattern files under $dir" >&2
  exit 1
fi

valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" \
  --toggle-collect='gpucc::compiler::Compiler::compile*' \
  "$gpucc" bench compile --once --target "$target" "$work/in" >"$work/once.txt" 2>"$work/valgrind.txt" || {
  cat "$work/valgrind.txt" >&2
  exit 1
}
compiled="$(sed -n 's/^[0-9]* files, \([0-9]*\) compile.*/\1/p' "$work/once.txt")"
total="$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$work/callgrind.out")"
if [ -z "$total" ] || [ -z "$compiled" ] || [ "$compiled" -eq 0 ]; then
  echo "$0: no measurement (callgrind summary '$total', compiled '$compiled')" >&2
  exit 1
fi
echo "target $target: $n files, $compiled compiled"
awk -v t="$total" -v c="$compiled" 'BEGIN {
  printf "Compiler::compile: %.3f G instructions in all, %.2f M per compiled program\n", t / 1e9, t / c / 1e6
}'
"$gpucc" bench compile --target "$target" --threads 1 --runs "$runs" "$work/in"
