#!/usr/bin/env bash
# The README's test command: set everything up, check the formatting, then run every test: C++
# once, once more under ASan and UBSan with a bounded libFuzzer run (scripts/test_sanitizers.sh),
# once more for 64-bit Arm under qemu (scripts/test_arm.sh), Python on the pinned torch, then Python
# again on the newest torch (scripts/test_newest_torch.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "== formatting (clang-format, ruff)"
bash scripts/check_format.sh
echo "== C++ tests (GoogleTest via ctest)"
ctest --test-dir build/cpp --output-on-failure
bash scripts/test_sanitizers.sh
bash scripts/test_arm.sh
# Both lanes run even when the first fails, so one CI log shows both; either failing fails CI.
status=0
echo "== Python tests (pytest), pinned torch"
"${PYTHON:-python3}" -m pytest tests/python -q -rs || status=1
bash scripts/test_newest_torch.sh || status=1
exit $status
