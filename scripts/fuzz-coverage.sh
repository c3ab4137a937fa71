#!/usr/bin/env bash
# Coverage-guided fuzzing of gpucc with libFuzzer (cargo-fuzz), over the same targets as the
# in-tree `gpucc fuzz` (compile-<target>, capi-<target>, nir, ...), seeded from the shared
# corpus through `gpucc fuzz --write-seeds`.
#
#   scripts/fuzz-coverage.sh [--shared DIR] [--out DIR] TARGET SECONDS [TARGET SECONDS ...]
#
# Needs: `cargo install cargo-fuzz` (once). cargo-fuzz wants a nightly compiler for its
# sanitizer flags; with only a stable toolchain (as on these machines) the script sets
# RUSTC_BOOTSTRAP=1, which lets stable rustc take them. Runs one libFuzzer job per target for
# SECONDS each, in fork mode so a crash is saved and the run goes on. Writes, per target,
# OUT/<target>/{corpus,crashes,findings,log.txt} (OUT defaults to ../fuzz-campaign beside the
# checkout) and prints a summary line: executions, coverage (libFuzzer's cov: edges and ft:
# features at the start and end), crashes, and findings (non-panic bugs: verify mismatches,
# internal errors), each of which replays with `gpucc verify`/`gpucc compile`.
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
shared="${GPUCC_SHARED:-$(dirname "$here")/shared}"
out="$(dirname "$here")/fuzz-campaign"
while [ $# -gt 0 ]; do
  case "$1" in
    --shared) shared="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
if [ $# -lt 2 ] || [ $(( $# % 2 )) -ne 0 ]; then
  echo "usage: $0 [--shared DIR] [--out DIR] TARGET SECONDS [TARGET SECONDS ...]" >&2
  exit 2
fi
command -v cargo-fuzz > /dev/null || { echo "$0: cargo-fuzz missing: cargo install cargo-fuzz" >&2; exit 1; }
export RUSTC_BOOTSTRAP=1
cd "$here"
cargo build --release --quiet --bin gpucc
(cd fuzz && cargo fuzz build --release gpucc 2>&1 | tail -n 3)
bin="$(ls -t fuzz/target/*/release/gpucc | head -n 1)"
mkdir -p "$out"
while [ $# -gt 0 ]; do
  t="$1" secs="$2"; shift 2
  d="$out/$t"
  mkdir -p "$d/corpus" "$d/crashes" "$d/findings" "$d/seeds"
  target/release/gpucc fuzz --target "$t" --shared "$shared" --write-seeds "$d/seeds-tmp" > /dev/null
  cp -n "$d/seeds-tmp/$t"/* "$d/seeds/" 2>/dev/null || true
  rm -rf "$d/seeds-tmp"
  GPUCC_FUZZ_TARGET="$t" GPUCC_FUZZ_FINDINGS="$d/findings" \
    "$bin" "$d/corpus" "$d/seeds" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
      -timeout=20 -rss_limit_mb=4096 -max_len=65536 -max_total_time="$secs" \
      -artifact_prefix="$d/crashes/" > "$d/log.txt" 2>&1 || true
  first="$(grep -m1 -oE 'cov: [0-9]+ ft: [0-9]+' "$d/log.txt" || true)"
  last="$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$d/log.txt" | tail -n 1 || true)"
  execs="$(grep -oE 'exec/s: [0-9]+|total_execs: [0-9]+' "$d/log.txt" | tail -n 1 || true)"
  crashes="$(find "$d/crashes" -type f | wc -l)"
  findings="$(find "$d/findings" -type f -not -name '*.txt' | wc -l)"
  echo "$t: ${secs} s, start {$first} end {$last}, $execs, crashes $crashes, findings $findings"
done
