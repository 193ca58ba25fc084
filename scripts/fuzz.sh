#!/usr/bin/env bash
# Builds the libFuzzer target (fuzz/fuzz_ops.cc) with clang, ASan and UBSan, and runs it for a bounded
# time on the seed corpus in fuzz/corpus (new finds go to build/fuzz/corpus, not the repository).
#   bash scripts/fuzz.sh [SECONDS]        (default 60; CI runs it for a bounded minute or less)
# A crash, a sanitizer report or a mismatch aborts with the input saved as build/fuzz/crash-*;
# replay one with build/fuzz/fuzz/u8aug_fuzz <file>.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g"
flags+=" $(bash scripts/unrunnable_targets.sh)"  # targets this CPU cannot run: not compiled
if ! command -v clang++ >/dev/null; then
  echo "== apt: installing clang (libFuzzer and the sanitizer runtimes)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends clang
fi
echo "== fuzzing: build (build/fuzz, clang)"
cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DU8AUG_TORCH=OFF -DU8AUG_CUDA=OFF -DU8AUG_FUZZ=ON -DCMAKE_CXX_FLAGS="$flags" >/dev/null
cmake --build build/fuzz --target u8aug_fuzz
bash scripts/check_isa.sh build/fuzz/libu8aug.a
mkdir -p build/fuzz/corpus
echo "== fuzzing: ${seconds}s on fuzz/corpus ($(ls fuzz/corpus | wc -l) seeds)"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  build/fuzz/fuzz/u8aug_fuzz -max_total_time="$seconds" -max_len=4096 -print_final_stats=1 \
  -artifact_prefix=build/fuzz/ build/fuzz/corpus fuzz/corpus 2>&1 | grep -E "^#|stat::|ERROR|SUMMARY|u8aug fuzz|Done" | tail -12
