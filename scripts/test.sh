#!/usr/bin/env bash
# The README's test command: set everything up, check the formatting, then run every test: C++
# once, once more under ASan and UBSan with a bounded libFuzzer run (scripts/test_sanitizers.sh),
# once more for 64-bit Arm under qemu (scripts/test_arm.sh), Python on the pinned torch, and Python
# again on the newest torch (scripts/test_newest_torch.sh).
# Two cores, so what waits on something other than the CPU overlaps with what does not: the newest
# torch's download runs while the sanitizer and Arm lanes compile, and the two Python lanes (one
# process each, mostly single-threaded) run side by side, the newest one's log printed after.
set -euo pipefail
cd "$(dirname "$0")/.."
lane() {  # prints a lane's duration when it ends
  local name=$1 start=$SECONDS
  shift
  "$@"
  echo "== lane '$name': $((SECONDS - start)) s"
}
lane "set-up" bash scripts/setup.sh
echo "== formatting (clang-format, ruff)"
lane "formatting" bash scripts/check_format.sh
echo "== C++ tests (GoogleTest via ctest)"
lane "C++ tests" ctest --test-dir build/cpp --output-on-failure
wheel_module=$("${PYTHON:-python3}" -c "import glob, os, u8aug; print(glob.glob(os.path.join(os.path.dirname(u8aug.__file__), '_C*.so'))[0])")
bash scripts/check_isa.sh build/cpp/libu8aug.a "$wheel_module"

mkdir -p build/logs
U8AUG_NEWEST_STEP=install bash scripts/test_newest_torch.sh > build/logs/newest-install.log 2>&1 &
newest_install=$!
lane "sanitizers + fuzzing" bash scripts/test_sanitizers.sh
lane "64-bit Arm" bash scripts/test_arm.sh
status=0
if ! wait $newest_install; then
  cat build/logs/newest-install.log
  echo "== newest torch: installing failed"
  exit 1
fi
cat build/logs/newest-install.log

# Both Python lanes run even when one fails, so one CI log shows both; either failing fails CI.
echo "== Python tests (pytest), pinned torch and newest torch side by side"
start=$SECONDS
U8AUG_NEWEST_STEP=test bash scripts/test_newest_torch.sh > build/logs/newest-pytest.log 2>&1 &
newest=$!
"${PYTHON:-python3}" -m pytest tests/python -q -rs -p no:cacheprovider --durations=20 || status=1
echo "== lane 'pytest, pinned torch': $((SECONDS - start)) s"
wait $newest || status=1
echo "== newest torch's log (build/logs/newest-pytest.log):"
cat build/logs/newest-pytest.log
echo "== lane 'pytest, both torches': $((SECONDS - start)) s"
exit $status
