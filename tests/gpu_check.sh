#!/usr/bin/env bash
# The GPU check of issue 26, in one short call on a machine with a CUDA device (docs/benchmarks.md,
# "tw16 bench train"): the CUDA tests of tests/test_gpu.py, then `tw16 bench train` on the device with
# the main job's network and a larger one, and on the CPU for comparison. Every output lands in
# $OUT (the device runner's folder) or runs/gpu_check; the script stops at the first failure.
#
#   bash tests/gpu_check.sh                    # about 3-4 minutes: tests, then 3 x 30 s of benchmark
#   GPU_CHECK_SECONDS=10 bash tests/gpu_check.sh
#
# It needs a Python where torch sees CUDA and tw16 is installed (pip install -e ".[test]"); it builds
# the native core in place (no network) when this checkout's `envs._core` does not import.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT_DIR="${OUT:-runs/gpu_check}"
SECONDS_EACH="${GPU_CHECK_SECONDS:-30}"
PY="${PYTHON:-python}"
mkdir -p "$OUT_DIR"
{
  date -u; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv 2>&1 || true
  "$PY" -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'available', torch.cuda.is_available())"
} | tee "$OUT_DIR/machine.txt"
"$PY" -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 3)" \
  || { echo "gpu_check: torch sees no CUDA device here: nothing to check" >&2; exit 3; }
if ! "$PY" -c "import envs._core" 2>/dev/null; then
  echo "gpu_check: building the native core (pip install --no-build-isolation --no-deps -e .)"
  "$PY" -m pip install -q --no-build-isolation --no-deps -e . > "$OUT_DIR/build.log" 2>&1
fi
# -rs lists the skips: on a CUDA machine none of the CUDA tests may skip (the no-CUDA error tests do)
"$PY" -m pytest tests/test_gpu.py -q -rs -p no:cacheprovider 2>&1 | tee "$OUT_DIR/test_gpu.txt"
if grep -q "SKIPPED.*no CUDA device" "$OUT_DIR/test_gpu.txt"; then
  echo "gpu_check: CUDA tests skipped on a CUDA machine" >&2; exit 4
fi
for run in "cuda main" "cuda large" "cpu main"; do
  set -- $run
  echo "gpu_check: tw16 bench train --device $1 --net $2 --seconds $SECONDS_EACH"
  "$PY" -m tw16.cli.main bench train --device "$1" --net "$2" --seconds "$SECONDS_EACH" > "$OUT_DIR/bench_train_$1_$2.json"
  "$PY" -c "import json, sys; r = json.load(open(sys.argv[1])); print(r['device_name'], r['net'], r['decisions_per_s'], 'decisions/s', r['split_frac'])" \
    "$OUT_DIR/bench_train_$1_$2.json"
done
echo "gpu_check: done; files in $OUT_DIR"
