"""Prints the README's op table from the op catalogue (kernels/include/u8aug/ops.def)."""

import u8aug


def op_table() -> str:
    rows = ["| op | kornia counterpart | fidelity | CPU | CUDA | what it does |", "|---|---|---|---|---|---|"]
    for op in u8aug.catalogue():
        rows.append(f"| `u8aug.{op['name']}` | `{op['kornia']}` | {op['fidelity']} | yes | yes | {op['summary']} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(op_table())
