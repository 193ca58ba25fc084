#!/usr/bin/env bash
# The README's main job: set everything up, show fidelity against kornia on real photos, benchmark
# the headline rows beside their peers (the standard pipeline, one image a call, ColorJitter,
# RandomResizedCrop, a flip; one thread, 32x3x224x224) and draw the picture
# (bench/results/pictures.png). A few minutes on 2 cores after the set-up.
#   bash scripts/demo.sh            # the above
#   bash scripts/demo.sh --full     # the whole cross-library benchmark instead of the headline rows
#                                   # (every op, three shapes, one thread and all cores: about an hour)
# Any other arguments go to bench/python/run.py (e.g. --cpu-target AVX2).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
bench=(--ops pipeline per_sample color_jitter resized_crop hflip --shapes 32x3x224x224 --threads 1 --tag "cpu-$(date -u +%F)-headline")
if [[ ${1:-} == --full ]]; then
  shift
  bench=()
fi
bash scripts/setup.sh
exec bash scripts/main_job.sh "${bench[@]}" "$@"
