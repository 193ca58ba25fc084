#----------------------------------------------------------------
# Generated CMake target import file for configuration "Release".
#----------------------------------------------------------------

# Commands may need to know the format version.
set(CMAKE_IMPORT_FILE_VERSION 1)

# Import target "u8aug::u8aug" for configuration "Release"
set_property(TARGET u8aug::u8aug APPEND PROPERTY IMPORTED_CONFIGURATIONS RELEASE)
set_target_properties(u8aug::u8aug PROPERTIES
  IMPORTED_LINK_INTERFACE_LANGUAGES_RELEASE "CUDA;CXX"
  IMPORTED_LOCATION_RELEASE "${_IMPORT_PREFIX}/lib/libu8aug.a"
  )

list(APPEND _cmake_import_check_targets u8aug::u8aug )
list(APPEND _cmake_import_check_files_for_u8aug::u8aug "${_IMPORT_PREFIX}/lib/libu8aug.a" )

# Commands beyond this point should not need to know the version.
set(CMAKE_IMPORT_FILE_VERSION)
