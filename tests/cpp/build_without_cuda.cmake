# cmake -P script: the C++ core must configure, build and run its example with CUDA switched off
# (what a machine without nvcc gets), and its CUDA entry points must say so instead of crashing.
# The core's build folder (CORE_DIR) is a sibling of the calling build folder, at its depth: ccache
# keys objects by their path relative to the build folder, so the kernels compiled there are reused.
file(REMOVE_RECURSE ${WORK_DIR} ${CORE_DIR})
include(${CMAKE_CURRENT_LIST_DIR}/run_checked.cmake)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${CORE_DIR} -G Ninja -DU8AUG_CUDA=OFF -DU8AUG_TORCH=OFF
    -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build ${CORE_DIR})
run(${CMAKE_COMMAND} --install ${CORE_DIR} --prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/cpp -B ${WORK_DIR}/example
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release -DEXPECT_NO_CUDA=ON)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/example)
run(${WORK_DIR}/example/flip_example)
# Every function of the C++ API, linked and called against the CUDA-less build.
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/cpp/no_cuda -B ${WORK_DIR}/api -G Ninja
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build ${WORK_DIR}/api)
run(${WORK_DIR}/api/api_without_cuda)
