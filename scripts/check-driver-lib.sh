#!/usr/bin/env bash
# Checks that a library built for drivers (Meson's libgpucc.so or libgpucc.a, built without
# cargo features) carries none of the test rig: no piglit runner, no register-allocation
# benchmark, no command-line parsing (clap). Reads the symbol table with nm; prints what it
# found and fails naming the symbols if any are there.
#
#   scripts/check-driver-lib.sh build/libgpucc.so build/libgpucc.a
set -euo pipefail
if [ $# -eq 0 ]; then
  echo "usage: $0 LIBRARY..." >&2
  exit 2
fi
# Demangled prefixes of what must be absent: modules behind the `rig` feature, and clap.
forbidden='gpucc::piglit::|gpucc::ra::bench::|gpucc::etnaviv::tool::|gpucc::nir::interp::cli::|gpucc::intel::sim::cli::|(^|[^a-z_])clap(_builder|_lex)?::'
status=0
for lib in "$@"; do
  if [ ! -e "$lib" ]; then
    echo "$0: $lib does not exist" >&2
    exit 1
  fi
  total=$(nm -C "$lib" 2>/dev/null | grep -c ' gpucc::' || true)
  if [ "$total" -eq 0 ]; then
    echo "$0: $lib has no gpucc symbols (stripped?): nothing to check" >&2
    exit 1
  fi
  found=$(nm -C "$lib" 2>/dev/null | awk '{ $1 = ""; $2 = ""; print }' | grep -E "$forbidden" | sort -u || true)
  if [ -n "$found" ]; then
    echo "$lib: carries the test rig ($(printf '%s\n' "$found" | wc -l) symbols), e.g.:" >&2
    printf '%s\n' "$found" | head -5 >&2
    status=1
  else
    echo "$lib: $total gpucc symbols, none of the test rig or clap"
  fi
done
exit $status
