file(REMOVE_RECURSE
  "CMakeFiles/flip_example.dir/main.cc.o"
  "CMakeFiles/flip_example.dir/main.cc.o.d"
  "flip_example"
  "flip_example.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang CXX)
  include(CMakeFiles/flip_example.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
