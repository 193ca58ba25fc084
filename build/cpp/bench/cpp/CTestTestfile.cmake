# CMake generated Testfile for 
# Source directory: /work/main/bench/cpp
# Build directory: /work/main/build/cpp/bench/cpp
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
