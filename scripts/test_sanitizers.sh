#!/usr/bin/env bash
# The C++ core and its GoogleTests built with AddressSanitizer and UndefinedBehaviorSanitizer (no
# recovery: the first finding fails the run), every Highway target, then run. CUDA is left out (the
# sanitizers do not instrument device code; scripts/gpu_check.sh runs compute-sanitizer there).
# Then the libFuzzer targets (fuzz/) for a bounded time each on their seed corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
echo "== C++ tests under ASan + UBSan (build/asan)"
cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DU8AUG_TORCH=OFF -DU8AUG_TESTS=ON \
  -DU8AUG_BENCH=OFF -DU8AUG_CUDA=OFF -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" >/dev/null
cmake --build build/asan --target u8aug_tests
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  build/asan/tests/cpp/u8aug_tests --gtest_brief=1
bash scripts/fuzz.sh "${U8AUG_FUZZ_SECONDS:-45}"
