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
# Two modules. u8aug._C: the schemas and the CPU implementations, linked with the CPU kernels alone,
# so it loads on any torch, with or without CUDA (no CUDA library among its NEEDED). u8aug._C_cuda: the
# CUDA implementations and kernels, linked with the CUDA runtime and libtorch_cuda; python/u8aug
# imports it only on a torch built with CUDA (whose import has loaded both already). Built wherever
# the torch found has CUDA; without nvcc its implementations say that this build has no kernels.
set(_bindings_common TORCH_TARGET_VERSION=${U8AUG_TORCH_TARGET_VERSION})
function(u8aug_torch_objects target)
  add_library(${target} OBJECT ${ARGN})
  set_target_properties(${target} PROPERTIES CXX_STANDARD 20 CXX_STANDARD_REQUIRED ON POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${target} SYSTEM PRIVATE ${_torch_includes})
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR})
  target_compile_definitions(${target} PRIVATE ${_bindings_common})
  # A wrapper in bindings/op_impls.inc that ops.def does not register is an error, not dead code.
  target_compile_options(${target} PRIVATE -Werror=unused-function)
  target_link_libraries(${target} PRIVATE u8aug_kernels)
endfunction()
u8aug_torch_objects(u8aug_torch_ops bindings/torch_ops.cpp bindings/torch_cpu.cpp bindings/draws.cpp
  bindings/draw_block.cpp bindings/torch_numbers.cpp bindings/kornia_math.cpp bindings/output_cache.cpp)
# kornia's float32 steps, each rounded as kornia rounds it (u8aug/draws.h): no fused multiply-add
set_source_files_properties(bindings/draws.cpp bindings/kornia_math.cpp PROPERTIES COMPILE_OPTIONS -ffp-contract=off)

# The stable C shim lives in libtorch_cpu (and its CUDA calls in libtorch_cuda), whose names and C
# symbols stay the same from one torch to the next.
function(u8aug_link_torch target)
  foreach(_lib ${ARGN})
    find_library(_path_${_lib} ${_lib} PATHS ${TORCH_LIBRARY_DIR} NO_DEFAULT_PATH REQUIRED)
    target_link_libraries(${target} PRIVATE ${_path_${_lib}})
  endforeach()
  # libtorch is found next to the installed package (site-packages/torch/lib).
  set_target_properties(${target} PROPERTIES INSTALL_RPATH "$ORIGIN/../torch/lib" BUILD_RPATH "${TORCH_LIBRARY_DIR}")
  install(TARGETS ${target} LIBRARY DESTINATION u8aug)
endfunction()

pybind11_add_module(_C MODULE bindings/module.cpp $<TARGET_OBJECTS:u8aug_torch_ops>)
target_include_directories(_C PRIVATE ${PROJECT_SOURCE_DIR})
target_compile_definitions(_C PRIVATE U8AUG_TORCH_VERSION="${TORCH_VERSION}" U8AUG_TORCH_OLDEST="${U8AUG_TORCH_OLDEST}")
target_link_libraries(_C PRIVATE u8aug_cpu)
u8aug_link_torch(_C torch_cpu)

if(NOT TORCH_CUDA_VERSION STREQUAL "")
  u8aug_torch_objects(u8aug_torch_cuda_ops bindings/torch_cuda.cpp)
  pybind11_add_module(_C_cuda MODULE bindings/module_cuda.cpp $<TARGET_OBJECTS:u8aug_torch_cuda_ops>
    bindings/output_cache.cpp)
  target_include_directories(_C_cuda PRIVATE ${PROJECT_SOURCE_DIR})
  target_link_libraries(_C_cuda PRIVATE u8aug)  # the CUDA kernels, or without nvcc their stubs
  if(_bind_cuda)
    target_compile_definitions(u8aug_torch_cuda_ops PRIVATE U8AUG_WITH_CUDA)
    target_compile_definitions(_C_cuda PRIVATE U8AUG_WITH_CUDA)
    u8aug_link_torch(_C_cuda torch_cpu torch_cuda)
  else()
    u8aug_link_torch(_C_cuda torch_cpu)
  endif()
endif()
