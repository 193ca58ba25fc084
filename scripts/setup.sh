#!/usr/bin/env bash
# Installs what is missing on a fresh machine (Debian packages, the pinned PyPI packages), builds
# the u8aug wheel against the pinned torch (build/dist, the one the newest-torch lane reuses) and
# installs it, and builds the C++ tests and benchmarks under build/cpp.
# Safe to rerun: every step skips or rebuilds incrementally.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}

apt_packages=(g++ cmake ninja-build ccache libhwy-dev libgtest-dev libbenchmark-dev git clang-format)
missing=()
for p in "${apt_packages[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if ((${#missing[@]})); then
  echo "== apt: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

echo "== pip: pinned requirements"
"$PYTHON" -m pip install -q --disable-pip-version-check -r requirements.txt

echo "== build the u8aug wheel (build/dist) and install it"
rm -f build/dist/u8aug-*.whl
"$PYTHON" -m pip wheel -q --disable-pip-version-check --no-build-isolation --no-deps . -w build/dist
"$PYTHON" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps build/dist/u8aug-*.whl

echo "== build the C++ core, tests and benchmarks (build/cpp)"
cmake -S . -B build/cpp -G Ninja -DU8AUG_TORCH=OFF -DU8AUG_TESTS=ON -DU8AUG_BENCH=ON >/dev/null
cmake --build build/cpp
