#!/usr/bin/env bash
# The piglit tests behind ../shared/corpus/stages: their .shader_test files come from
# Debian's `piglit` package (the corpus names them, it does not carry them). This downloads
# the package (about 34 MB; nothing is installed), and copies each test that has NIR in the
# stage corpus into DEST under the corpus's name for it: tests/spec/a/b/c.shader_test
# becomes DEST/piglit__spec__a__b__c.shader_test (spaces in piglit's names become `_`), so
# `gpucc piglit --nir-dir ../shared/corpus/stages/ivb DEST/*` finds every stage's NIR.
#
#   scripts/fetch-piglit-stages.sh [--shared DIR] DEST
#
# Idempotent: a DEST that already holds the tests is left as it is.
set -euo pipefail

shared="../shared"
if [ "${1:-}" = "--shared" ]; then
  shared="$2"
  shift 2
fi
dest="${1:?usage: $0 [--shared DIR] DEST}"
stages="$shared/corpus/stages/ivb"
[ -d "$stages" ] || { echo "no stage corpus at $stages" >&2; exit 1; }

if [ -f "$dest/.complete" ]; then
  exit 0
fi
mkdir -p "$dest"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(
  cd "$work"
  apt-get download piglit >/dev/null 2>&1 || {
    apt-get update -qq && apt-get download piglit >/dev/null
  }
)
dpkg-deb -x "$work"/piglit_*.deb "$work/x"
root=$(find "$work/x" -type d -name piglit -path '*/lib/*' | head -n1)
[ -n "$root" ] || { echo "the piglit package has no lib/piglit tree" >&2; exit 1; }

found=0
missing=()
# Every test the stage corpus has NIR for, by its corpus name.
for name in $(ls "$stages" | sed -n 's/\.\(vs\|tcs\|tes\|gs\|fs\)\.nir$//p' | sort -u); do
  rel=${name#piglit__}
  rel=${rel//__//}
  src=""
  for dir in tests generated_tests; do
    if [ -f "$root/$dir/$rel.shader_test" ]; then
      src="$root/$dir/$rel.shader_test"
      break
    fi
  done
  if [ -z "$src" ]; then
    missing+=("$rel")
    continue
  fi
  cp "$src" "$dest/$name.shader_test"
  found=$((found + 1))
done
echo "piglit stage tests: $found copied to $dest, ${#missing[@]} not in the package"
for m in "${missing[@]}"; do echo "  missing: $m"; done
touch "$dest/.complete"
