# The torch extension module u8aug._C, built from bindings/ against the torch that `import torch`
# finds. Torch's own CMake package is not used: it drags in CUDA/cuDNN discovery we do not need.
string(REPLACE "\n" ";" _torch_lines "${_torch_out}")
list(GET _torch_lines 0 _torch_includes)
list(GET _torch_lines 1 TORCH_LIBRARY_DIR)
list(GET _torch_lines 2 TORCH_VERSION)
list(LENGTH _torch_lines _n)
set(TORCH_CUDA_VERSION "")
if(_n GREATER 3)
  list(GET _torch_lines 3 TORCH_CUDA_VERSION)
endif()
string(REPLACE "," ";" _torch_includes "${_torch_includes}")
message(STATUS "u8aug: torch ${TORCH_VERSION} (CUDA '${TORCH_CUDA_VERSION}') at ${TORCH_LIBRARY_DIR}")

set(_bind_cuda OFF)
if(U8AUG_WITH_CUDA)
  if(TORCH_CUDA_VERSION STREQUAL "")
    message(WARNING "u8aug: this torch has no CUDA; the torch ops are built for the CPU only")
  else()
    string(REGEX MATCH "^[0-9]+" _torch_cuda_major "${TORCH_CUDA_VERSION}")
    string(REGEX MATCH "^[0-9]+" _nvcc_major "${CMAKE_CUDA_COMPILER_VERSION}")
    if(NOT _torch_cuda_major STREQUAL _nvcc_major)
      message(FATAL_ERROR "u8aug: torch was built with CUDA ${TORCH_CUDA_VERSION} but nvcc is "
        "${CMAKE_CUDA_COMPILER_VERSION}; install a torch for CUDA ${_nvcc_major} or set -DU8AUG_CUDA=OFF")
    endif()
    set(_bind_cuda ON)
  endif()
endif()

execute_process(COMMAND ${Python_EXECUTABLE} -m pybind11 --cmakedir
  OUTPUT_VARIABLE pybind11_DIR OUTPUT_STRIP_TRAILING_WHITESPACE)
find_package(pybind11 CONFIG REQUIRED)

# The torch ops: only LibTorch's stable ABI (torch/csrc/stable and its C shim), limited to what
# torch 2.11 offers, so a module built against any torch >= 2.11 loads and runs on every newer one,
# and one built against 2.11 serves them all. C++20 because newer torch headers need it (2.15's
# c10 uses std::strong_ordering and requires-clauses); the C++ core and CUDA stay at C++17.
# module.cpp (pybind11: build_info and catalogue) sees no torch header: torch's include tree
# carries a pybind11 of its own that refuses to build for a target version.
set(U8AUG_TORCH_OLDEST "2.11" CACHE STRING "The oldest torch the module must load on (major.minor)")
string(REGEX MATCH "^([0-9]+)\\.([0-9]+)" _ "${TORCH_VERSION}")
set(_torch_mm "${CMAKE_MATCH_1}.${CMAKE_MATCH_2}")
if(_torch_mm VERSION_LESS U8AUG_TORCH_OLDEST)
  message(FATAL_ERROR "u8aug: torch ${TORCH_VERSION} is older than ${U8AUG_TORCH_OLDEST}, the oldest torch whose "
    "stable ABI u8aug's bindings use; install torch >= ${U8AUG_TORCH_OLDEST} or set -DU8AUG_TORCH=OFF")
endif()
string(REPLACE "." ";" _oldest "${U8AUG_TORCH_OLDEST}")
list(GET _oldest 0 _oldest_major)
list(GET _oldest 1 _oldest_minor)
math(EXPR U8AUG_TORCH_TARGET_VERSION "(${_oldest_major} << 56) | (${_oldest_minor} << 48)" OUTPUT_FORMAT HEXADECIMAL)
add_library(u8aug_torch_ops OBJECT bindings/torch_ops.cpp bindings/torch_cpu.cpp bindings/torch_cuda.cpp bindings/draws.cpp
  bindings/output_cache.cpp)
set_target_properties(u8aug_torch_ops PROPERTIES CXX_STANDARD 20 CXX_STANDARD_REQUIRED ON
  POSITION_INDEPENDENT_CODE ON)
target_include_directories(u8aug_torch_ops SYSTEM PRIVATE ${_torch_includes})
target_include_directories(u8aug_torch_ops PRIVATE ${PROJECT_SOURCE_DIR})
target_compile_definitions(u8aug_torch_ops PRIVATE TORCH_TARGET_VERSION=${U8AUG_TORCH_TARGET_VERSION})
# A wrapper in bindings/op_impls.inc that ops.def does not register is an error, not dead code.
target_compile_options(u8aug_torch_ops PRIVATE -Werror=unused-function)
# kornia's float32 steps, each rounded as kornia rounds it (u8aug/draws.h): no fused multiply-add
set_source_files_properties(bindings/draws.cpp PROPERTIES COMPILE_OPTIONS -ffp-contract=off)
target_link_libraries(u8aug_torch_ops PRIVATE u8aug_kernels)

pybind11_add_module(_C MODULE bindings/module.cpp $<TARGET_OBJECTS:u8aug_torch_ops>)
target_include_directories(_C PRIVATE ${PROJECT_SOURCE_DIR})
target_compile_definitions(_C PRIVATE U8AUG_TORCH_VERSION="${TORCH_VERSION}" U8AUG_TORCH_OLDEST="${U8AUG_TORCH_OLDEST}")
# The stable C shim lives in libtorch_cpu (and its CUDA calls in libtorch_cuda), whose names and C
# symbols stay the same from one torch to the next.
set(_torch_libs torch_cpu)
if(_bind_cuda)
  target_compile_definitions(u8aug_torch_ops PRIVATE U8AUG_WITH_CUDA)
  target_compile_definitions(_C PRIVATE U8AUG_WITH_CUDA)
  list(APPEND _torch_libs torch_cuda)
endif()
foreach(_lib ${_torch_libs})
  find_library(_path_${_lib} ${_lib} PATHS ${TORCH_LIBRARY_DIR} NO_DEFAULT_PATH REQUIRED)
  target_link_libraries(_C PRIVATE ${_path_${_lib}})
endforeach()
target_link_libraries(_C PRIVATE u8aug)
# libtorch is found next to the installed package (site-packages/torch/lib).
set_target_properties(_C PROPERTIES INSTALL_RPATH "$ORIGIN/../torch/lib" BUILD_RPATH "${TORCH_LIBRARY_DIR}")
install(TARGETS _C LIBRARY DESTINATION u8aug)
