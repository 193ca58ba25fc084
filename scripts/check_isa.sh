#!/usr/bin/env bash
# Fails when a built u8aug binary holds VEX-encoded VNNI instructions ({vex} vpdpbusd, vpdpwssd, ...):
# AVX-VNNI, which Highway 1.0.3's AVX3_DL target enables but AVX-512 CPUs such as Zen 4 and Ice Lake
# lack, so an AVX3_DL kernel holding one dies there with SIGILL. CMakeLists.txt leaves AVX3_DL out of
# clang builds with such a Highway; GCC emits none. Usage: scripts/check_isa.sh FILE...
set -euo pipefail
[[ $(uname -m) == x86_64 ]] || exit 0
status=0
for f in "$@"; do
  n=$(objdump -d --no-show-raw-insn "$f" | grep -c "{vex} vpdp" || true)
  if ((n > 0)); then
    echo "== $f: $n AVX-VNNI instructions (VEX vpdp*), illegal on AVX-512 CPUs without AVX-VNNI" >&2
    status=1
  fi
done
exit $status
