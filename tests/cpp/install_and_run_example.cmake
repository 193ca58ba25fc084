# cmake -P script: install the built u8aug to a scratch prefix, build examples/cpp against it with
# find_package(u8aug), and run the program. Fails on any step.
file(REMOVE_RECURSE ${WORK_DIR})
include(${CMAKE_CURRENT_LIST_DIR}/run_checked.cmake)
if(NOT CONFIG)
  set(CONFIG Release)
endif()
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix --config ${CONFIG})
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/cpp -B ${WORK_DIR}/build
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=${CONFIG})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${WORK_DIR}/build/flip_example)
run(${WORK_DIR}/build/seeded_recipe)
