#!/usr/bin/env bash
# Fails when a tracked source file is not formatted as the tree's style says: C++/CUDA by
# clang-format 14 (.clang-format), Python by ruff (pyproject.toml's [tool.ruff]), and ruff's lint.
# To apply: clang-format -i <files>; ruff format . && ruff check --fix .
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
mapfile -t cpp < <(git ls-files '*.cc' '*.cu' '*.cuh' '*.h' '*.cpp' '*.inc')
clang-format --dry-run -Werror "${cpp[@]}"
"$PYTHON" -m ruff format --check --quiet .
"$PYTHON" -m ruff check --quiet .
echo "format: ${#cpp[@]} C++/CUDA files and the Python tree are clean"
