#!/usr/bin/env bash
# The second test lane: the whole Python suite on the newest torch (requirements-newest.txt), in a
# virtual environment of its own (build/venv-newest), against the very wheel built for the pinned
# torch 2.11 by setup.sh: the stable-ABI claim that one wheel serves every torch >= 2.11, tested.
# The suite's wheel test also builds u8aug from source against the newest torch there.
# Run after scripts/setup.sh (test.sh does both). U8AUG_NEWEST_STEP=install only makes the
# environment, =test only runs the suite in it (test.sh overlaps the first with the C++ lanes).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
VENV=build/venv-newest

step=${U8AUG_NEWEST_STEP:-all}
if [[ $step != test ]]; then
  if [[ ! -x $VENV/bin/python ]]; then
    echo "== newest torch: creating $VENV"
    "$PYTHON" -m venv "$VENV"
  fi
  echo "== newest torch: pip"
  pins=(-r requirements-newest.txt)
  if [[ ${U8AUG_NEWEST:-} == latest ]]; then pins=(--upgrade torch torchvision); fi
  # every pin of requirements.txt but torch and torchvision, which the newest lane replaces
  grep -v -E '^(torch|torchvision)==' requirements.txt > build/requirements-rest.txt
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check -r build/requirements-rest.txt "${pins[@]}"
  "$VENV/bin/python" -c "import torch, torchvision, kornia; print('== newest torch:', torch.__version__, 'torchvision', torchvision.__version__, 'kornia', kornia.__version__)"

  wheel=$(ls build/dist/u8aug-*.whl)
  echo "== newest torch: installing $wheel (built against $("$PYTHON" -c 'import torch; print(torch.__version__)'))"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps "$wheel"
fi
[[ $step == install ]] && exit 0

echo "== newest torch: Python tests (pytest)"
"$VENV/bin/python" -m pytest tests/python -q -rs -p no:cacheprovider --durations=20
