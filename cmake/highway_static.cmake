# Highway's run-time sources from U8AUG_HWY_SOURCE_DIR as a static, position-independent library
# with hidden symbols: target u8aug_hwy, used in place of the shared hwy::hwy (see CMakeLists.txt).
set(_hwy_runtime hwy/aligned_allocator.cc hwy/nanobenchmark.cc hwy/per_target.cc hwy/print.cc hwy/targets.cc)
foreach(_f IN LISTS _hwy_runtime)
  if(NOT EXISTS "${U8AUG_HWY_SOURCE_DIR}/${_f}")
    message(FATAL_ERROR "U8AUG_HWY_SOURCE_DIR=${U8AUG_HWY_SOURCE_DIR} has no ${_f}: it must be Highway's "
      "source tree (`apt-get source highway`, the version of the installed libhwy-dev)")
  endif()
endforeach()
file(STRINGS "${U8AUG_HWY_SOURCE_DIR}/hwy/highway.h" _src_major REGEX "define HWY_MAJOR ")
file(STRINGS "${U8AUG_HWY_SOURCE_DIR}/hwy/highway.h" _src_minor REGEX "define HWY_MINOR ")
string(REGEX MATCH "[0-9]+" _src_major "${_src_major}")
string(REGEX MATCH "[0-9]+" _src_minor "${_src_minor}")
if(NOT "${_src_major}.${_src_minor}" VERSION_EQUAL "${hwy_VERSION_MAJOR}.${hwy_VERSION_MINOR}")
  message(FATAL_ERROR "Highway's source in ${U8AUG_HWY_SOURCE_DIR} is ${_src_major}.${_src_minor}, "
    "the installed headers are ${hwy_VERSION}: they must be the same version")
endif()
list(TRANSFORM _hwy_runtime PREPEND "${U8AUG_HWY_SOURCE_DIR}/")
add_library(u8aug_hwy_runtime STATIC ${_hwy_runtime})
# Users of the target see the installed headers (those the kernels compile against); the run-time's
# own sources also include themselves (per_target.cc goes through foreach_target.h) from the tree.
get_target_property(_hwy_includes hwy::hwy INTERFACE_INCLUDE_DIRECTORIES)
target_include_directories(u8aug_hwy_runtime PUBLIC ${_hwy_includes} PRIVATE ${U8AUG_HWY_SOURCE_DIR})
# The kernels see the same declarations as with the shared library (HWY_SHARED_DEFINE, as hwy::hwy
# gives them), so their objects are those of a build against libhwy (ccache shares them); a
# reference declared with default visibility binds to the hidden definition in this archive and
# stays hidden in the module.
target_compile_definitions(u8aug_hwy_runtime PRIVATE HWY_STATIC_DEFINE INTERFACE HWY_SHARED_DEFINE)
set_target_properties(u8aug_hwy_runtime PROPERTIES POSITION_INDEPENDENT_CODE ON
  CXX_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON)
target_compile_options(u8aug_hwy_runtime PRIVATE -w)
add_library(u8aug_hwy INTERFACE)
target_link_libraries(u8aug_hwy INTERFACE u8aug_hwy_runtime)
