#!/usr/bin/env bash
# Run ON THE LENT GPU MACHINE (torch 2.11 + CUDA 13, Python 3.12, no network), with .gpu_carry/
# from scripts/gpu_prepare.sh carried along. In one command, well under 8 minutes:
#   1. builds the C++ core with CUDA and runs the C++ tests (CUDA against CPU, exact);
#   2. builds and installs the torch extension, runs the CUDA pytest cases (CUDA bytes equal
#      CPU bytes, opcheck and torch.compile on CUDA) and the package tests;
#   3. runs compute-sanitizer (memcheck, racecheck) over the CUDA GoogleTests, and memcheck over
#      every op's CUDA opcheck (tests/python/test_catalogue.py), each in a time box;
#   4. runs the GPU benchmark rows (CUDA events, against a device-to-device copy).
# The CUDA pytest cases include tests/python/test_cuda_graphs.py: no op synchronises the host, and
# a compiled pipeline replays from a CUDA graph with eager's bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
START=$SECONDS
carry=$PWD/.gpu_carry
[ -d "$carry/debs" ] || { echo "no .gpu_carry/: run scripts/gpu_prepare.sh here first and carry it"; exit 2; }

echo "== machine"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,memory.total --format=csv
python3 -c "import torch; print('torch', torch.__version__, 'cuda', torch.version.cuda)"
nvcc --version | tail -1

echo "== unpack Highway and GoogleTest"
root=$carry/root
rm -rf "$root" && mkdir -p "$root"
for d in "$carry"/debs/*.deb; do dpkg -x "$d" "$root"; done
export CMAKE_PREFIX_PATH=$root/usr
export LD_LIBRARY_PATH=$root/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
export CPLUS_INCLUDE_PATH=$root/usr/include:${CPLUS_INCLUDE_PATH:-}
python3 -m pip install -q --no-index --find-links "$carry/wheels" \
  kornia pytest scikit-build-core 2>&1 | grep -v "as the 'root' user" || true
jobs=$(nproc)

echo "== [1] C++ core with CUDA: build and ctest ($((SECONDS - START)) s)"
cmake -S . -B build/gpu -G Ninja -DU8AUG_TORCH=OFF -DU8AUG_TESTS=ON -DU8AUG_BENCH=OFF \
  -DCMAKE_CUDA_ARCHITECTURES="90-real;90-virtual" >/dev/null
cmake --build build/gpu -j "$jobs"
ctest --test-dir build/gpu --output-on-failure -j "$jobs"
./build/gpu/tests/cpp/u8aug_cuda_tests

echo "== [2] torch extension: build, install, CUDA pytest ($((SECONDS - START)) s)"
CMAKE_BUILD_PARALLEL_LEVEL=$jobs python3 -m pip install -q --no-index --no-build-isolation --no-deps . \
  2>&1 | grep -v "as the 'root' user" || true
python3 -c "import u8aug, json; i = u8aug.build_info(); print(json.dumps(i)); assert i['torch_ops_cuda'], i['cuda_backend']"
python3 -m pytest tests/python -q -rs -m "cuda or not compile" -k "cuda or opcheck or package"

echo "== [3] compute-sanitizer ($((SECONDS - START)) s)"
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1 || true)
if [ -z "$sanitizer" ]; then
  echo "compute-sanitizer: not found on this machine (NOT RUN)"
else
  for tool in memcheck racecheck; do
    timeout 90 "$sanitizer" --tool "$tool" --error-exitcode 3 ./build/gpu/tests/cpp/u8aug_cuda_tests --gtest_brief=1 \
      && echo "compute-sanitizer $tool, CUDA GoogleTests: clean" \
      || { rc=$?; echo "compute-sanitizer $tool, CUDA GoogleTests: FAILED or timed out (rc $rc)"; }
  done
  timeout 150 "$sanitizer" --tool memcheck --error-exitcode 3 --target-processes all \
    python3 -m pytest tests/python/test_catalogue.py -q -k "opcheck and cuda" -p no:cacheprovider \
    && echo "compute-sanitizer memcheck, every op's CUDA opcheck: clean" \
    || { rc=$?; echo "compute-sanitizer memcheck, every op's CUDA opcheck: FAILED or timed out (rc $rc)"; }
fi

echo "== [4] GPU benchmark ($((SECONDS - START)) s)"
# A subset that fits the time box (kornia's compiled rows cost a compilation per op and shape).
python3 bench/python/run.py --device cuda --ops hflip vflip adjust_brightness_accumulative invert \
  equalize normalize grayscale color_jiggle --shapes 256x3x224x224 32x3x512x512 1x3x1080x1920 \
  --libraries "u8aug" "u8aug compiled" "kornia float" "torchvision v2" "memcpy" --min-run-time 0.2 \
  --out "${OUT:-bench/results}" --tag gpu-h200
# Geometry at B=256 (issue 4's GPU goal: bilinear warps at >= 50% of the copy bandwidth).
python3 bench/python/run.py --device cuda --ops affine perspective resized_crop --shapes 256x3x224x224 \
  --libraries "u8aug" "u8aug compiled" "kornia float" "torchvision v2" "memcpy" --min-run-time 0.2 \
  --out "${OUT:-bench/results}" --tag gpu-h200-geometry
echo "== done in $((SECONDS - START)) s"
