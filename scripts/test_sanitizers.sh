#!/usr/bin/env bash
# The C++ core and its GoogleTests built with AddressSanitizer and UndefinedBehaviorSanitizer (no
# recovery: the first finding fails the run), every Highway target this CPU can run, then run. CUDA
# is left out (the sanitizers do not instrument device code; scripts/gpu_check.sh runs
# compute-sanitizer there). Then the libFuzzer targets (fuzz/) for a bounded time each on their seed
# corpus.
# Cost: the x86 targets this CPU cannot run (AVX-512 on an AVX2 machine) are not compiled
# (scripts/unrunnable_targets.sh: the tests could not run them here, and build/cpp compiles every
# target); the tests run as two shards side by side, one per core.
set -euo pipefail
cd "$(dirname "$0")/.."
flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
flags+=" $(bash scripts/unrunnable_targets.sh)"
echo "== C++ tests under ASan + UBSan (build/asan)"
cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DU8AUG_TORCH=OFF -DU8AUG_TESTS=ON \
  -DU8AUG_BENCH=OFF -DU8AUG_CUDA=OFF -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" >/dev/null
cmake --build build/asan --target u8aug_tests
shards=2
pids=()
for ((i = 0; i < shards; i++)); do
  GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 build/asan/tests/cpp/u8aug_tests --gtest_brief=1 \
    > "build/asan/shard-$i.log" 2>&1 &
  pids+=($!)
done
status=0
for ((i = 0; i < shards; i++)); do
  wait "${pids[$i]}" || status=1
  echo "-- shard $i of $shards:"
  tail -n 40 "build/asan/shard-$i.log"
done
((status == 0)) || { echo "== ASan + UBSan: a shard failed"; exit 1; }
bash scripts/fuzz.sh "${U8AUG_FUZZ_SECONDS:-45}"
