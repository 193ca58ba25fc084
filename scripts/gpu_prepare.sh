#!/usr/bin/env bash
# Run HERE (the machine with network) before a GPU session: fills .gpu_carry/ (git-ignored) with
# what the GPU machine lacks and cannot download: Debian's Highway and GoogleTest packages, and
# Python 3.12 wheels for kornia, pytest and scikit-build-core. Then call the device tool with
#   carry: [".gpu_carry"], command: "bash scripts/gpu_check.sh"
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf .gpu_carry && mkdir -p .gpu_carry/debs .gpu_carry/wheels
(cd .gpu_carry/debs && apt-get download libhwy-dev libhwy1 libgtest-dev >/dev/null)
python3 -m pip download -q --disable-pip-version-check --only-binary=:all: --no-deps \
  --python-version 3.12 --platform manylinux_2_28_x86_64 --platform manylinux2014_x86_64 \
  --platform manylinux_2_17_x86_64 --platform any -d .gpu_carry/wheels \
  kornia==0.9.0 kornia-rs==0.2.0 pytest==8.4.2 pluggy==1.6.0 iniconfig==2.1.0 \
  scikit-build-core==0.11.6 pathspec==0.12.1 packaging==25.0
du -sh .gpu_carry
