#!/usr/bin/env bash
# Build the libFuzzer harnesses of the native core (clang++, -fsanitize=fuzzer,address,undefined) and
# run each for a fixed time; see docs/robustness.md ("The native core: sanitizers and libFuzzer").
#
#   native/fuzz/run.sh [SECONDS] [HARNESS ...]     e.g. native/fuzz/run.sh 60   (60 s each)
#
# Harnesses: score hand game boundary (default: all). Environment: PYTHON (the interpreter with
# numpy and tw16's dependencies, for tools/gen_fuzz_fixtures.py; default python3), CXX (default clang++),
# TW16_FUZZ_DIR (build folder, default build/fuzz). The corpus grows in $TW16_FUZZ_DIR/corpus/<h>
# between runs; a finding is saved in $TW16_FUZZ_DIR/artifacts/<h>/ (replay it: fuzz_<h> FILE).
# Exit code 1 when a harness found something.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SECS=${1:-60}
shift || true
HARNESSES=("$@")
[ ${#HARNESSES[@]} -eq 0 ] && HARNESSES=(score hand game boundary)
OUT=${TW16_FUZZ_DIR:-$ROOT/build/fuzz}
PY=${PYTHON:-python3}
CXX_BIN=${CXX:-clang++}
command -v "$CXX_BIN" >/dev/null || { echo "run.sh: $CXX_BIN not found (apt-get install clang)" >&2; exit 2; }

mkdir -p "$OUT"
PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}" "$PY" "$ROOT/tools/gen_fuzz_fixtures.py" "$OUT"
GEN=()
command -v ninja >/dev/null && GEN=(-G Ninja)
[ -f "$OUT/CMakeCache.txt" ] || cmake -S "$ROOT/native/fuzz" -B "$OUT" "${GEN[@]}" -DCMAKE_CXX_COMPILER="$CXX_BIN" >/dev/null
cmake --build "$OUT" --parallel "$(nproc 2>/dev/null || echo 2)"

status=0
printf '\n%-9s %10s %8s %11s %7s %7s %s\n' harness executions exec/s cov/edges ft corpus findings
for h in "${HARNESSES[@]}"; do
  mkdir -p "$OUT/corpus/$h" "$OUT/artifacts/$h"
  log="$OUT/log_$h.txt"
  maxlen=512
  case $h in game|boundary) maxlen=4096 ;; esac
  set +e
  "$OUT/fuzz_$h" "$OUT/corpus/$h" "$OUT/seeds/$h" -max_total_time="$SECS" -timeout=20 -rss_limit_mb=2048 \
    -max_len=$maxlen -print_final_stats=1 -artifact_prefix="$OUT/artifacts/$h/" >"$log" 2>&1
  rc=$?
  set -e
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  last=$(grep -E '^#[0-9]+' "$log" | tail -1)
  rate=$(grep -o 'exec/s: [0-9]*' <<<"$last" | grep -o '[0-9]*$' || echo ?)
  cov=$(grep -o 'cov: [0-9]*' <<<"$last" | grep -o '[0-9]*$' || echo ?)
  edges=$(grep -m1 -o '[0-9]* inline 8-bit counters' "$log" | grep -o '^[0-9]*' || echo ?)
  ft=$(grep -o 'ft: [0-9]*' <<<"$last" | grep -o '[0-9]*$' || echo ?)
  corp=$(grep -o 'corp: [0-9]*' <<<"$last" | grep -o '[0-9]*$' || echo ?)
  found=none
  if [ $rc -ne 0 ]; then
    status=1
    found="rc=$rc: $(grep -m1 -E 'ERROR: AddressSanitizer|runtime error|FINDING|ERROR: libFuzzer' "$log" | cut -c1-160) (log: $log)"
  fi
  printf '%-9s %10s %8s %11s %7s %7s %s\n' "$h" "$execs" "$rate" "$cov/$edges" "$ft" "$corp" "$found"
done
exit $status
