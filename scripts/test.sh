#!/usr/bin/env bash
# The README's test command: set everything up, check the formatting, then run every test: C++
# once, once more under ASan and UBSan with a bounded libFuzzer run (scripts/test_sanitizers.sh),
# once more for 64-bit Arm under qemu (scripts/test_arm.sh), Python on the pinned torch, Python
# again on the newest torch (scripts/test_newest_torch.sh), and the reference-path-sensitive Python
# tests a third time under a second reference path (torch's AVX2 kernels, MKL's compatible path).
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
# the installed wheel's modules: the core u8aug._C and the CUDA backend u8aug._C_cuda
mapfile -t wheel_modules < <("${PYTHON:-python3}" -c "import glob, os, u8aug; print('\n'.join(glob.glob(os.path.join(os.path.dirname(u8aug.__file__), '_C*.so'))))")
bash scripts/check_isa.sh build/cpp/libu8aug.a "${wheel_modules[@]}"

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

# kornia's oracle on a second reference path (docs/fidelity.md, reference paths): torch's AVX2
# kernels and MKL's compatible code path instead of this machine's AVX-512 kernels and MKL's default;
# the fidelity demo and every test whose oracle depends on the path, so an op whose class holds on
# one CPU only is found here.
# Its own inductor cache: torch 2.11's on-disk cache does not key its kernels on the capability, and
# a kernel compiled for AVX-512 reused under ATEN_CPU_CAPABILITY=avx2 returns wrong numbers (seen
# here: RandomJPEG's compiled quantization tables came out as -1.9e38).
echo "== Python tests on a second reference path (ATEN_CPU_CAPABILITY=avx2 MKL_CBWR=COMPATIBLE)"
start=$SECONDS
rm -rf build/inductor-second-path
ATEN_CPU_CAPABILITY=avx2 MKL_CBWR=COMPATIBLE TORCHINDUCTOR_CACHE_DIR=$PWD/build/inductor-second-path \
  "${PYTHON:-python3}" -m pytest tests/python -q -rs -p no:cacheprovider -m "reference_path and not compile" || status=1
echo "== lane 'pytest, second reference path': $((SECONDS - start)) s"
exit $status
