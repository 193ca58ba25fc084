"""Prints the README's op table from the op catalogue (kernels/include/u8aug/ops.def)."""

import u8aug

# The fast column: the class of the op's fidelity="fast" tier (README, Fidelity: the fast tier).
FAST_COLUMN = {"fast": "fast", "exact": "exact (same arithmetic)", "-": "–"}


def op_table() -> str:
    rows = [
        '| op | kornia counterpart | fidelity | `fidelity="fast"` | CPU | CUDA | what it does |',
        "|---|---|---|---|---|---|---|",
    ]
    for op in u8aug.catalogue():
        fast = FAST_COLUMN[op["fast"]]
        rows.append(
            f"| `u8aug.{op['name']}` | `{op['kornia']}` | {op['fidelity']} | {fast} | yes | yes | {op['summary']} |"
        )
    return "\n".join(rows)


if __name__ == "__main__":
    print(op_table())
