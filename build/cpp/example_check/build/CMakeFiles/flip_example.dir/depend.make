# Empty dependencies file for flip_example.
# This may be replaced when dependencies are built.
