#!/usr/bin/env bash
# The main job's three steps once set up (scripts/demo.sh runs the set-up, then this): the fidelity
# demo, the benchmark (arguments go to bench/python/run.py) and the picture. A fidelity row outside
# its class does not stop the job: the benchmark and the picture still run, and the exit status
# says so at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
fidelity=0
"$PYTHON" bench/python/fidelity_demo.py || fidelity=$?
"$PYTHON" bench/python/run.py "$@"
"$PYTHON" bench/python/picture_grid.py
if ((fidelity != 0)); then
  echo "main job: the fidelity demo failed (exit $fidelity): see the rows marked FAILS ITS CLASS above" >&2
  exit "$fidelity"
fi
