"""The map of the tools in CONTRIBUTING.md names modules that exist, and the house rules hold:
the conftests only hand off, no module of tools/ is over 450 lines, and the package's imports
run one way (no module imports one that imports it back)."""

from __future__ import annotations

import ast
import re
from pathlib import Path
import itertools

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "tools" / "koanrunner"
LIMIT = 450


def test_every_module_the_map_names_exists():
    text = (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text.split("## Where things live", 1)[1]
    named = re.findall(r"`(tools/[\w/]+\.py)`", section)
    assert len(named) >= 20
    missing = [rel for rel in named if not (REPO / rel).is_file()]
    assert missing == []


def test_the_conftests_only_hand_off():
    for rel in ("conftest.py", "koans/katas/conftest.py", "answers/katas/conftest.py"):
        lines = (REPO / rel).read_text(encoding="utf-8").splitlines()
        assert len(lines) <= 25, rel


def test_no_file_of_the_tools_is_over_the_limit():
    long = {p.relative_to(REPO).as_posix(): n for p in (REPO / "tools").rglob("*.py")
            if "__pycache__" not in p.parts
            and (n := len(p.read_text(encoding="utf-8").splitlines())) > LIMIT}
    assert long == {}


def _imports(path: Path) -> set[str]:
    """The package's modules a module imports (relative imports resolved), at any depth."""
    module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(max(node.level - 1, 0)):
                base = base.rsplit(".", 1)[0]
            target = f"{base}.{node.module}" if node.level and node.module else (
                base if node.level else node.module or "")
            for alias in node.names:
                found.add(f"{target}.{alias.name}")
                found.add(target)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name.removesuffix(".__init__") for name in found if name.startswith("koanrunner")}


def test_no_import_circle_in_the_package():
    modules = {".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__"): p
               for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts}
    edges = {name: {t for t in _imports(path) if t in modules and t != name} for name, path in modules.items()}
    # a package's __init__ may import its own submodules (a dispatcher); a circle is any other
    circles = []

    def visit(node: str, trail: list[str]) -> None:
        for nxt in sorted(edges[node]):
            if nxt in trail:
                cycle = [*trail[trail.index(nxt):], nxt]
                if not all(a.startswith(b + ".") or b.startswith(a + ".") for a, b in itertools.pairwise(cycle)):
                    circles.append(" -> ".join(cycle))
                continue
            if len(trail) < 12:
                visit(nxt, [*trail, nxt])

    for name in sorted(edges):
        visit(name, [name])
    assert sorted(set(circles)) == []


def test_source_segments_are_what_ast_reads_at_each_node() -> None:
    """The aligner reads each fill's text from lines split once; it must read what
    ``ast.get_source_segment`` reads, however the lines end and whatever they hold."""
    from koanrunner.source import source_lines, source_segment

    texts = [p.read_text(encoding="utf-8") for p in sorted((REPO / "answers").rglob("*.py"))[:60:6]]
    texts += ['x = ("é", 1,\r\n     2)\r\ny = "\\f"\rz = [\n  3]  # ü\f\n', "a = 1", "b = (\n1\n)\n\n"]
    for text in texts:
        lines = source_lines(text)
        assert "".join(lines) == text
        for node in ast.walk(ast.parse(text)):
            assert source_segment(lines, node) == ast.get_source_segment(text, node)
