#!/usr/bin/env bash
# kornia's own tests/augmentation with and without u8aug.kornia.install(): the same failures either
# way is issue 47's goal (install() leaves kornia's float path alone). kornia's tests are not in its
# PyPI packages, so this takes a folder holding kornia's repository at the installed version's tag
# (tests/, testing/, conftest.py); CI cannot fetch it, so it runs by hand:
#   bash scripts/kornia_suite.sh /path/to/kornia-checkout
# Prints both failure counts and the tests that fail only with install(); exits 1 if there are any.
set -euo pipefail
src=${1:?usage: scripts/kornia_suite.sh KORNIA_CHECKOUT}
PYTHON=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'import u8aug.kornia as UK\n\n\ndef pytest_configure(config):\n    UK.install()\n' > "$work/u8aug_install_plugin.py"
failures() {  # the sorted ids of the failing tests in a pytest log
  sed 's/\x1b\[[0-9;]*m//g' "$1" | grep '^FAILED ' | sed 's/^FAILED //; s/ - .*//' | sort
}
cd "$src"
"$PYTHON" -m pytest tests/augmentation -q -p no:cacheprovider -rf > "$work/without.log" 2>&1 || true
PYTHONPATH="$work${PYTHONPATH:+:$PYTHONPATH}" "$PYTHON" -m pytest tests/augmentation -q -p no:cacheprovider -rf \
  -p u8aug_install_plugin > "$work/with.log" 2>&1 || true
failures "$work/without.log" > "$work/without.txt"
failures "$work/with.log" > "$work/with.txt"
echo "kornia's tests/augmentation: $(wc -l < "$work/without.txt") failures without install(), $(wc -l < "$work/with.txt") with"
tail -1 "$work/without.log"
tail -1 "$work/with.log"
only_with=$(comm -13 "$work/without.txt" "$work/with.txt")
if [[ -n $only_with ]]; then
  echo "failing only with install():"
  echo "$only_with"
  exit 1
fi
echo "the same failures with install() as without"
