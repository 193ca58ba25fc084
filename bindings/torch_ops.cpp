// The torch schemas of every op, from the op catalogue.
#include <torch/csrc/stable/library.h>

STABLE_TORCH_LIBRARY(u8aug, m) {
#define U8AUG_OP(name, schema, kornia, fidelity, fast, summary) m.def(schema);
#include "u8aug/ops.def"
#undef U8AUG_OP
}
