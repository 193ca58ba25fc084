# CMake generated Testfile for 
# Source directory: /work/main/tests/cpp
# Build directory: /work/main/build/cpp/tests/cpp
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
include("/work/main/build/cpp/tests/cpp/u8aug_tests[1]_include.cmake")
add_test([=[u8aug_cuda_tests]=] "/work/main/build/cpp/tests/cpp/u8aug_cuda_tests")
set_tests_properties([=[u8aug_cuda_tests]=] PROPERTIES  SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]" _BACKTRACE_TRIPLES "/work/main/tests/cpp/CMakeLists.txt;14;add_test;/work/main/tests/cpp/CMakeLists.txt;0;")
add_test([=[cpp_api_example_via_find_package]=] "/usr/bin/cmake" "-DBUILD_DIR=/work/main/build/cpp" "-DSOURCE_DIR=/work/main" "-DWORK_DIR=/work/main/build/cpp/example_check" "-DCONFIG=Release" "-P" "/work/main/tests/cpp/install_and_run_example.cmake")
set_tests_properties([=[cpp_api_example_via_find_package]=] PROPERTIES  _BACKTRACE_TRIPLES "/work/main/tests/cpp/CMakeLists.txt;20;add_test;/work/main/tests/cpp/CMakeLists.txt;0;")
