#!/usr/bin/env bash
# Runs shader-db's `run` through a Mesa built by mesa/build.sh (with gpucc), on Mesa's noop
# drm-shim, and checks what gpucc did inside the driver against gpucc's own command line.
#
#   mesa/shader-db.sh --gpu GPU [--mesa DIR] [--run PATH] [--out DIR] [--compare] [--piglit]
#                     FILE|DIR...
#
# GPU: GC2000, GC3000 or GC7000L (etnaviv's shim picks the core, as ETNA_SHIM_GPU does), or
#   ivb, hsw (crocus) and bdw, skl (iris) on Mesa's Intel noop shim (INTEL_STUB_GPU_PLATFORM).
# FILE|DIR: .shader_test files, or folders of them (e.g. ../shared/corpus/piglit).
# --mesa DIR: mesa/build.sh's folder (default ../mesa-build beside this checkout, or
#   $GPUCC_MESA_DIR); Mesa is taken from DIR/prefix.
# --run PATH: shader-db's `run` (default DIR/shader-db/run). Build it from a shader-db checkout
#   with `make run` (Debian: apt-get install libepoxy-dev libgbm-dev).
# --compare: GPUCC_MESA_COMPARE=1, the driver compiles every shader with both backends and
#   logs each difference in what it binds.
#
# --piglit: the inputs are piglit tests, run as piglit's shader_runner compiles them: a shader
#   section without its own `#version` gets the test's GLSL requirement as one
#   (mesa/shader-test-versions.py; copies in DIR/tests). shader-db's own captures are
#   compiled as they are, as the application compiled them (the default).
#
# Output in DIR (default: a new temporary folder, printed): run.log (run's stdout: one line per
# statistics or gpucc message), run.err, nir/ (every shader the driver handed to gpucc, as
# nir_print printed it, and nir/target.txt: the core as gpucc's command line names it), and
# on stdout the summary: programs, how many gpucc compiled, how many fell back and why, the
# statistics totals, and the check that `gpucc compile --stats` over each handed-over shader
# prints the line the driver printed for it. Exit status 1 when that check fails.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
mesa="${GPUCC_MESA_DIR:-$(dirname "$repo")/mesa-build}"
gpu="" run="" out="" compare=0 piglit=0 inputs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --gpu) gpu="$2"; shift 2 ;;
    --mesa) mesa="$2"; shift 2 ;;
    --run) run="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --compare) compare=1; shift ;;
    --piglit) piglit=1; shift ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    -*) echo "$0: unknown argument $1" >&2; exit 2 ;;
    *) inputs+=("$1"); shift ;;
  esac
done
[ -n "$gpu" ] && [ ${#inputs[@]} -gt 0 ] || { sed -n '2,22p' "$0" >&2; exit 2; }
run="${run:-$mesa/shader-db/run}"
prefix="$mesa/prefix"
libdir="$prefix/lib/x86_64-linux-gnu"
[ -x "$run" ] || { echo "$0: shader-db's run not found at $run (see --run)" >&2; exit 1; }
[ -d "$libdir/dri" ] || { echo "$0: no Mesa install in $prefix (run mesa/build.sh)" >&2; exit 1; }
gpucc="$repo/target/release/gpucc"
[ -x "$gpucc" ] || (cd "$repo" && cargo build --release --quiet)

case "$gpu" in
  GC2000|GC3000|GC7000L)
    shim="$libdir/libetnaviv_noop_drm_shim.so"
    family=etnaviv
    driver_env=(ETNA_SHIM_GPU="$gpu" MESA_LOADER_DRIVER_OVERRIDE=etnaviv
                ETNA_MESA_DEBUG=shaderdb,nocache) ;;
  ivb|hsw|bdw|skl)
    shim="$libdir/libintel_noop_drm_shim.so"
    family=intel
    driver_env=(INTEL_STUB_GPU_PLATFORM="$gpu") ;;
  *) echo "$0: GPU $gpu: GC2000, GC3000, GC7000L, ivb, hsw, bdw or skl" >&2; exit 2 ;;
esac

out="${out:-$(mktemp -d /tmp/gpucc-shader-db.XXXXXX)}"
rm -rf "$out/nir"
mkdir -p "$out/nir"
files=()
for i in "${inputs[@]}"; do
  if [ -d "$i" ]; then
    while IFS= read -r f; do files+=("$f"); done < <(find "$i" -name '*.shader_test' | sort)
  else
    files+=("$i")
  fi
done

# piglit tests as shader_runner compiles them: each shader section gets the #version of the
# test's GLSL requirement unless it starts with its own (shader-db's `run` adds none).
tests=("${files[@]}")
if [ "$piglit" = 1 ]; then
  rm -rf "$out/tests"
  python3 "$here/shader-test-versions.py" "$out/tests" "${files[@]}"
  tests=()
  for f in "${files[@]}"; do tests+=("$out/tests/$(basename "$f")"); done
fi

start=$(date +%s)
env LD_PRELOAD="$shim" LD_LIBRARY_PATH="$libdir" LIBGL_DRIVERS_PATH="$libdir/dri" \
  GBM_BACKENDS_PATH="$libdir/gbm" \
  __EGL_VENDOR_LIBRARY_FILENAMES="$prefix/share/glvnd/egl_vendor.d/50_mesa.json" \
  MESA_SHADER_CACHE_DISABLE=true GPUCC_MESA_DUMP="$out/nir" GPUCC_MESA_COMPARE="$compare" \
  "${driver_env[@]}" "$run" -j1 "${tests[@]}" > "$out/run.log" 2> "$out/run.err" || true
end=$(date +%s)
echo "shader-db run on $gpu: ${#files[@]} test files in $((end - start)) s; output in $out"

summary_args=(--gpucc "$gpucc" --out "$out" --family "$family")
[ "$compare" = 1 ] && summary_args+=(--compare)
python3 "$here/shader-db-summary.py" "${summary_args[@]}"
