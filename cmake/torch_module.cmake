# The torch extension module u8aug._C, built from bindings/ against the torch that `import torch`
# finds. Torch's own CMake package is not used: it drags in CUDA/cuDNN discovery we do not need.
string(REPLACE "\n" ";" _torch_lines "${_torch_out}")
list(GET _torch_lines 0 _torch_includes)
list(GET _torch_lines 1 TORCH_LIBRARY_DIR)
list(GET _torch_lines 2 TORCH_CXX11_ABI)
list(GET _torch_lines 3 TORCH_VERSION)
list(LENGTH _torch_lines _n)
set(TORCH_CUDA_VERSION "")
if(_n GREATER 4)
  list(GET _torch_lines 4 TORCH_CUDA_VERSION)
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

pybind11_add_module(_C MODULE
  bindings/module.cpp bindings/torch_ops.cpp bindings/torch_cpu.cpp bindings/torch_cuda.cpp)
target_include_directories(_C SYSTEM PRIVATE ${_torch_includes})
target_include_directories(_C PRIVATE ${PROJECT_SOURCE_DIR})
target_compile_definitions(_C PRIVATE _GLIBCXX_USE_CXX11_ABI=${TORCH_CXX11_ABI}
  U8AUG_TORCH_VERSION="${TORCH_VERSION}")
set(_torch_libs c10 torch torch_cpu)
if(_bind_cuda)
  target_compile_definitions(_C PRIVATE U8AUG_WITH_CUDA)
  target_include_directories(_C SYSTEM PRIVATE ${CUDAToolkit_INCLUDE_DIRS})
  list(APPEND _torch_libs c10_cuda torch_cuda)
endif()
foreach(_lib ${_torch_libs})
  find_library(_path_${_lib} ${_lib} PATHS ${TORCH_LIBRARY_DIR} NO_DEFAULT_PATH REQUIRED)
  target_link_libraries(_C PRIVATE ${_path_${_lib}})
endforeach()
target_link_libraries(_C PRIVATE u8aug)
# at::parallel_for is inline OpenMP in the headers: without -fopenmp it runs serially. At run time
# libgomp.so.1 resolves to the copy torch has already loaded, so torch.set_num_threads applies.
find_package(OpenMP REQUIRED COMPONENTS CXX)
target_link_libraries(_C PRIVATE OpenMP::OpenMP_CXX)
# libtorch is found next to the installed package (site-packages/torch/lib).
set_target_properties(_C PROPERTIES INSTALL_RPATH "$ORIGIN/../torch/lib" BUILD_RPATH "${TORCH_LIBRARY_DIR}")
install(TARGETS _C LIBRARY DESTINATION u8aug)
