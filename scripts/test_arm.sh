#!/usr/bin/env bash
# The C++ core for 64-bit Arm: cross-compiled with Debian's g++-aarch64-linux-gnu against the arm64
# packages of Highway and GoogleTest (Debian multiarch), its GoogleTests run under qemu-user. Speed
# cannot be measured this way; correctness can. Installs what is missing (needs root for apt).
set -euo pipefail
cd "$(dirname "$0")/.."

need=(g++-aarch64-linux-gnu qemu-user libhwy-dev:arm64 libgtest-dev:arm64)
missing=()
for p in "${need[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if ((${#missing[@]})); then
  echo "== arm64: installing ${missing[*]}"
  dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

echo "== arm64: cross-build the C++ core and its tests (build/arm)"
cmake -S . -B build/arm -G Ninja -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake -DU8AUG_CUDA=OFF \
  -DU8AUG_TORCH=OFF -DU8AUG_TESTS=ON -DU8AUG_BENCH=OFF >/dev/null
cmake --build build/arm --target u8aug_tests
echo "== arm64: GoogleTest under qemu-aarch64"
# Every test but those that start std::threads: a dynamically linked aarch64 program that creates
# a thread hangs under Debian 12's qemu-user 7.2 (a two-line std::thread program does too; statically
# linked it runs, but Debian ships no static Highway). The x86 runs cover those tests.
# Two shards side by side, one per core (qemu-user runs each guest thread on one host thread).
pids=()
for i in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$i qemu-aarch64 -L /usr/aarch64-linux-gnu build/arm/tests/cpp/u8aug_tests \
    --gtest_brief=1 --gtest_filter=-Flip.DefaultParallelForMatchesSerial:OutputCache.ManyThreadsTakeAndGiveBack \
    > "build/arm/shard-$i.log" 2>&1 &
  pids+=($!)
done
status=0
for i in 0 1; do
  wait "${pids[$i]}" || status=1
  echo "-- shard $i of 2:"
  tail -n 40 "build/arm/shard-$i.log"
done
exit $status
