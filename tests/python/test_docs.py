"""The README and docs/ stay true: the README is a front page (at most 250 lines), every relative
link and anchor resolves, docs/ops.md holds the op table the catalogue makes, and every ```python
block runs (a block whose previous non-blank line is `<!-- not run -->` is illustration only)."""

import os
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NOT_RUN = "<!-- not run -->"


def anchors(page: Path) -> set:
    """GitHub's heading anchors: lowercase, punctuation but '-' and '_' dropped, spaces to '-'."""
    found, seen = set(), {}
    in_code = False
    for line in page.read_text().splitlines():
        if line.startswith("```"):
            in_code = not in_code
        if in_code or not line.startswith("#"):
            continue
        text = line.lstrip("#").strip()
        slug = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def links(page: Path):
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if not re.match(r"^[a-z]+:", target):
            yield target


def python_blocks(page: Path):
    lines = page.read_text().splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```python":
            start = i
            previous = next((p.strip() for p in reversed(lines[:i]) if p.strip()), "")
            j = i + 1
            while lines[j].strip() != "```":
                j += 1
            if previous != NOT_RUN:
                yield f"{page.relative_to(ROOT)}:{start + 1}", "\n".join(lines[i + 1 : j])
            i = j
        i += 1


def test_readme_is_a_front_page():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 250


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_resolve(page):
    broken = []
    for target in links(page):
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(target)
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(target)
    assert not broken, f"{page.relative_to(ROOT)}: broken links {broken}"


def test_every_docs_page_is_linked_from_the_readme_or_the_docs_index():
    linked = set()
    for page in (ROOT / "README.md", ROOT / "docs" / "README.md"):
        for target in links(page):
            linked.add((page.parent / target.partition("#")[0]).resolve())
    orphans = [p.name for p in PAGES[1:] if p.resolve() not in linked]
    assert not orphans, orphans


def test_docs_op_table_is_current():
    """docs/ops.md's op table is the one scripts/op_table.py makes from the catalogue."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from op_table import op_table
    finally:
        sys.path.pop(0)
    assert op_table() in (ROOT / "docs" / "ops.md").read_text(), "stale: paste `python scripts/op_table.py`"


BLOCKS = [block for page in PAGES for block in python_blocks(page)]


@pytest.mark.parametrize("where,code", BLOCKS, ids=[where for where, _ in BLOCKS])
def test_python_block_runs(where, code, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    exec(compile(code, where, "exec"), {"__name__": "__docs__"})
