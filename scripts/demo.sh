#!/usr/bin/env bash
# The README's main job: set everything up, show fidelity against kornia on real photos, run the
# cross-library benchmark and print its table (results under bench/results/), then draw the picture
# (bench/results/pictures.png: photos through the fused pipelines beside kornia's, the ratio chart).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
"${PYTHON:-python3}" bench/python/fidelity_demo.py
"${PYTHON:-python3}" bench/python/run.py "$@"
"${PYTHON:-python3}" bench/python/picture_grid.py
