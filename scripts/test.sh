#!/usr/bin/env bash
# The README's test command: set everything up, then run every test (C++ then Python).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "== C++ tests (GoogleTest via ctest)"
ctest --test-dir build/cpp --output-on-failure
echo "== Python tests (pytest)"
"${PYTHON:-python3}" -m pytest tests/python -q -rs
