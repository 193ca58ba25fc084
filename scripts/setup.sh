#!/usr/bin/env bash
# Installs what is missing on a fresh machine (Debian packages, the pinned PyPI packages), builds
# the portable u8aug wheel against the pinned torch (build/dist, the one the newest-torch lane
# reuses: Highway's run-time linked in from its Debian source, every CUDA architecture torch was
# built for, repaired by auditwheel to a manylinux tag) and installs it, and builds the C++ tests
# and benchmarks under build/cpp. Safe to rerun: every step skips or rebuilds incrementally.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}

apt_packages=(g++ cmake ninja-build ccache libhwy-dev libgtest-dev libbenchmark-dev git clang-format patchelf dpkg-dev)
missing=()
# dpkg-query, not `dpkg -s`: with the arm64 lane's multiarch packages `dpkg -s libhwy-dev` is ambiguous
installed() { dpkg-query -W -f='${db:Status-Abbrev}\n' "$1" 2>/dev/null | grep -q '^ii'; }
for p in "${apt_packages[@]}"; do installed "$p" || missing+=("$p"); done
if ((${#missing[@]})); then
  echo "== apt: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Highway's source, the very version of the installed libhwy-dev, for its run-time (a few files the
# wheel links in so that it does not need Debian's libhwy.so.1 on the user's machine).
hwy_version=$(dpkg-query -W -f='${Version}' "libhwy-dev:$(dpkg --print-architecture)")
hwy_src=build/highway-src/$hwy_version
fetch_highway_source() {
  rm -rf "$hwy_src" && mkdir -p "$hwy_src"
  (cd "$hwy_src" && apt-get source -qq "highway=$hwy_version" >/dev/null 2>&1)
}
if [[ ! -f $hwy_src/done ]]; then
  echo "== apt: Highway's source ($hwy_version)"
  if ! fetch_highway_source; then
    # no source entry for Debian's archive yet: add one for the same archive and suite
    . /etc/os-release
    printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      "$VERSION_CODENAME" > /etc/apt/sources.list.d/u8aug-deb-src.sources
    apt-get update -qq
    fetch_highway_source || { echo "setup: cannot fetch Highway's source (apt-get source highway=$hwy_version)" >&2; exit 1; }
  fi
  touch "$hwy_src/done"
fi
hwy_dir=$(cd "$hwy_src" && pwd)/$(cd "$hwy_src" && ls -d highway-*/ | head -1)

echo "== pip: pinned requirements"
"$PYTHON" -m pip install -q --disable-pip-version-check -r requirements.txt

echo "== build the u8aug wheel (build/dist) and install it"
rm -rf build/dist build/wheel-raw
"$PYTHON" -m pip wheel -q --disable-pip-version-check --no-build-isolation --no-deps . -w build/wheel-raw \
  -C cmake.define.U8AUG_HWY_SOURCE_DIR="$hwy_dir"
# A manylinux tag: torch's libraries and the CUDA runtime come with torch, not with u8aug.
"$PYTHON" -m auditwheel repair build/wheel-raw/u8aug-*.whl -w build/dist \
  --exclude 'libtorch*.so' --exclude 'libc10*.so' --exclude 'libcudart.so.*'
"$PYTHON" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps build/dist/u8aug-*.whl

echo "== build the C++ core, tests and benchmarks (build/cpp)"
cmake -S . -B build/cpp -G Ninja -DU8AUG_TORCH=OFF -DU8AUG_TESTS=ON -DU8AUG_BENCH=ON >/dev/null
cmake --build build/cpp
