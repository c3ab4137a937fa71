#!/usr/bin/env bash
# A fingerprint of everything gpucc produces for the shared corpus: one line per (target,
# binding model, shader) with a hash of the machine code and a hash of the assembly and
# statistics text. Two runs with different builds are compared with `diff`, which is how a
# restructuring shows that its output is byte-identical:
#
#   scripts/corpus-digest.sh --gpucc OLD/gpucc > before.txt
#   scripts/corpus-digest.sh --gpucc target/release/gpucc > after.txt
#   diff before.txt after.txt
#
# Targets: ivb and hsw (ivb's NIR), bdw, skl, gc2000 and gc3000 (gc2000's NIR), gc7000;
# Intel shaders once with gpucc's binding model and once with Mesa's. A failed compile is a
# line too (its message hashed), so a change in what is refused also shows.
# --shared DIR names the corpus root (default ../shared); --only TARGET limits the run.
set -euo pipefail

gpucc="target/release/gpucc" shared="../shared" only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --gpucc) gpucc="$2"; shift 2 ;;
    --shared) shared="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "$0: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [ ! -x "$gpucc" ]; then
  echo "$0: $gpucc is not an executable (cargo build --release first)" >&2
  exit 1
fi
if [ ! -d "$shared/corpus/nir" ]; then
  echo "$0: no corpus under $shared/corpus/nir" >&2
  exit 1
fi
gpucc=$(readlink -f "$gpucc")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One shader: prints "target binding file code-hash text-hash".
digest_one() {
  local gpucc="$1" target="$2" binding="$3" file="$4" work="$5"
  local bin="$work/$$.bin" code text
  rm -f "$bin"
  if text=$("$gpucc" compile --target "$target" --binding "$binding" --asm --stats -o "$bin" "$file" 2>&1); then
    code=$(sha256sum < "$bin" | cut -c1-16)
  else
    code="failed"
  fi
  text=$(printf '%s' "$text" | sha256sum | cut -c1-16)
  echo "$target $binding $(basename "$file") $code $text"
}
export -f digest_one

run() {
  local target="$1" corpus="$2" binding="$3"
  if [ -n "$only" ] && [ "$only" != "$target" ]; then
    return
  fi
  find "$shared/corpus/nir/$corpus" -name '*.nir' | sort |
    xargs -P "$(nproc)" -I{} bash -c 'digest_one "$@"' _ "$gpucc" "$target" "$binding" {} "$work" |
    sort
}

for t in ivb:ivb hsw:ivb bdw:bdw skl:skl; do
  run "${t%%:*}" "${t##*:}" gpucc
  run "${t%%:*}" "${t##*:}" mesa
done
for t in gc2000:gc2000 gc3000:gc2000 gc7000:gc7000; do
  run "${t%%:*}" "${t##*:}" gpucc
done
