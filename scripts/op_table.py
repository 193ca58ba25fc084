"""Prints the README's op table from the op catalogue (kernels/include/u8aug/ops.def)."""

import u8aug

# The fast column: the class of the op's fidelity="fast" tier (README, Fidelity: the fast tier).
FAST_COLUMN = {"fast": "fast", "exact": "exact (same arithmetic)", "-": "–"}


# What has run where (FIDELITY.md, Devices): the CUDA kernels are built and linked, and their
# bodies, run on the CPU over every index (tests/cpp/test_each_index.cc), give the CPU's bytes; no
# GPU has run them yet. A session whose GPU check passes (scripts/gpu_check.sh) changes this.
CUDA_STATUS = "built; bodies CPU-tested, not yet run on a GPU"


def op_table() -> str:
    rows = [
        '| op | kornia counterpart | fidelity | `fidelity="fast"` | CPU | CUDA | what it does |',
        "|---|---|---|---|---|---|---|",
    ]
    for op in u8aug.catalogue():
        fast = FAST_COLUMN[op["fast"]]
        rows.append(
            f"| `u8aug.{op['name']}` | `{op['kornia']}` | {op['fidelity']} | {fast} | tested | {CUDA_STATUS} | {op['summary']} |"
        )
    return "\n".join(rows)


if __name__ == "__main__":
    print(op_table())
