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
deb=$(ls "$work"/piglit_*.deb)

# The corpus names of every test the stage corpus has NIR for.
ls "$stages" | sed -n 's/\.\(vs\|tcs\|tes\|gs\|fs\)\.nir$//p' | sort -u >"$work/wanted"

# Unpacking the whole package takes over 2 GB (its generated tests), more than a CI machine
# may have free, so only the wanted members are extracted: the member list is matched
# against the wanted names first. A test in tests/ is taken over one of the same name in
# generated_tests/, and spaces in piglit's names read as `_`.
dpkg-deb --fsys-tarfile "$deb" | tar -t >"$work/members"
awk -v wanted="$work/wanted" '
  BEGIN { while ((getline line < wanted) > 0) want[line] = 1 }
  match($0, /\/lib\/[^\/]*\/piglit\/(tests|generated_tests)\//) && /\.shader_test$/ {
    head = substr($0, RSTART, RLENGTH)
    rel = substr($0, RSTART + RLENGTH)
    sub(/\.shader_test$/, "", rel)
    key = rel
    gsub(/\//, "__", key)
    gsub(/ /, "_", key)
    key = "piglit__" key
    if (!(key in want)) next
    if (head ~ /\/generated_tests\/$/) { if (!(key in gen)) gen[key] = $0 }
    else if (!(key in own)) own[key] = $0
  }
  END {
    for (k in want) {
      if (k in own) print own[k] "\t" k
      else if (k in gen) print gen[k] "\t" k
    }
  }' "$work/members" | sort -t "$(printf '\t')" -k2 >"$work/chosen"
[ -s "$work/chosen" ] || { echo "the piglit package has none of the corpus's tests" >&2; exit 1; }
cut -f1 "$work/chosen" >"$work/extract"
mkdir -p "$work/x"
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work/x" --verbatim-files-from -T "$work/extract"

found=0
while IFS=$'\t' read -r member key; do
  cp "$work/x/$member" "$dest/$key.shader_test"
  found=$((found + 1))
done <"$work/chosen"
mapfile -t missing < <(cut -f2 "$work/chosen" | sort | comm -23 "$work/wanted" - | sed 's/^piglit__//; s/__/\//g')
echo "piglit stage tests: $found copied to $dest, ${#missing[@]} not in the package"
for m in "${missing[@]}"; do echo "  missing: $m"; done
touch "$dest/.complete"
