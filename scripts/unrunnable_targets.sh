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
# Highway's AVX3_DL needs all of these, as Linux spells them (avx512vbmi, but avx512_vnni)
for flag in avx512vbmi avx512_vnni avx512_vbmi2 avx512_bitalg avx512_vpopcntdq vaes vpclmulqdq; do
  [[ $cpu_flags == *" $flag "* ]] || { skip+=(HWY_AVX3_DL); break; }
done
((${#skip[@]})) || exit 0
mask=0
for t in "${skip[@]}"; do
  bit=$(printf '#include <hwy/detect_targets.h>\n%s\n' "$t" | g++ -E -P -x c++ - | tail -n 1 | tr -d 'L')
  mask=$((mask | bit))
done
echo "== this CPU cannot run ${skip[*]}: left out of this build" >&2
echo "-DHWY_DISABLED_TARGETS=$mask"
