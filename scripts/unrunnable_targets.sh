#!/usr/bin/env bash
# Prints a -DHWY_DISABLED_TARGETS=<mask> flag naming the x86 Highway targets this CPU cannot run
# (AVX-512 ones on an AVX2 machine), or nothing. The sanitizer and fuzzing builds leave those out:
# their tests could not run them here; the plain build (build/cpp) compiles every target.
# The mask is a number: a parenthesised expression would reach the shell that ninja runs.
set -euo pipefail
[[ $(uname -m) == x86_64 ]] || exit 0
cpu_flags=" $(grep -m1 '^flags' /proc/cpuinfo | cut -d: -f2) "
skip=()
[[ $cpu_flags == *" avx512f "* && $cpu_flags == *" avx512bw "* ]] || skip+=(HWY_AVX3)
[[ $cpu_flags == *" avx512vbmi "* && $cpu_flags == *" avx512vnni "* ]] || skip+=(HWY_AVX3_DL)
((${#skip[@]})) || exit 0
mask=0
for t in "${skip[@]}"; do
  bit=$(printf '#include <hwy/detect_targets.h>\n%s\n' "$t" | g++ -E -P -x c++ - | tail -n 1 | tr -d 'L')
  mask=$((mask | bit))
done
echo "== this CPU cannot run ${skip[*]}: left out of this build" >&2
echo "-DHWY_DISABLED_TARGETS=$mask"
