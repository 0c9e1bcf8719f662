"""The tricks pass: fills a learner can type that are not answers must never solve a koan.

Each trick is typed into a copy of a koan file, as a learner would (the koan aligned with its
pristine copy, every other blank filled with its answer), and each koan it touches must fail,
for the trick's own reason:

- ``mock.ANY``, an object whose ``__eq__`` says yes, ``pytest.approx`` of the answer, and the
  answer as a value of another type (``1`` for ``True``) at a value blank: "not a value";
- ``pytest.skip()`` at a blank: the fill "skipped the koan";
- the left side of its comparison at a blank on the right: "the question again";
- a tuple of exception classes (the answer's parents) at an exception blank: "one exception
  class";
- a first fill that rebinds ``__`` and ``___`` in builtins: every other koan of the file,
  left unfilled, still fails on its blank.

The value tricks take turns over a file's koans, so each koan meets every one of them across
the file's variants.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from . import engine
from .engine import Report, first_line
from .koans import Fill, KoanFile
from .mutants import pytest_run, substitute_all

ANY = '__import__("unittest.mock").mock.ANY'
EQUAL = ('type("AlwaysEqual", (), {"__eq__": lambda s, o: True, "__ne__": lambda s, o: False, '
         '"__hash__": lambda s: 0})()')
SKIP = '__import__("pytest").skip("a fill that skips")'
VALUE_TRICKS = ("any", "equal", "approx", "other type", "skip")
WHY = {  # what each trick's failure must say
    "any": "a fill must be a value", "equal": "a fill must be a value",
    "approx": "a fill must be a value", "other type": "a fill must be a value",
    "skip": "skipped the koan", "restate": "the question again",
    "tuple": "one exception class", "rebind": "fill in the blank",
}
LIMIT = 15.0  # seconds a trick's koan may run: a restated read of a pipe waits for ever
OTHER_TYPE = {"True": "1", "False": "0", "1": "True", "0": "False"}


@dataclass
class Typed:
    test: str
    trick: str
    fill: Fill | None  # where the trick stands (None: the koan is left with its blank)


def _trick_text(trick: str, fill: Fill, func: ast.AST | None) -> str | None:
    """What the learner would type for ``trick`` at ``fill``; None where it does not apply."""
    if fill.blank_kind == "___":
        return None
    if trick == "any":
        return ANY
    if trick == "equal":
        return EQUAL
    if trick == "approx":
        return f'__import__("pytest").approx({fill.text})'
    if trick == "other type":
        return OTHER_TYPE.get(fill.text.strip())
    if trick == "skip":
        return SKIP
    return None


def _left_side(fill: Fill, func: ast.AST, answer: str) -> str | None:
    for node in ast.walk(func):
        if isinstance(node, ast.Compare) and len(node.comparators) == 1 and \
                node.comparators[0].lineno == fill.lineno and node.comparators[0].col_offset == fill.col:
            return ast.get_source_segment(answer, node.left)
    return None


def variants(kf: KoanFile, answer: str, skip: set[tuple[str, str, str, int]]
             ) -> list[tuple[str, dict[Fill, str], list[Typed]]]:
    """The trick variants of one koan file: (label, replacements by fill, what each touches)."""
    tree = ast.parse(answer)
    funcs = {name: f for name, f in ((n, f) for n, f in _tests(tree))}
    by_test: dict[str, list[Fill]] = {}
    for fill in kf.fills:
        by_test.setdefault(fill.test, []).append(fill)
    usable = {t: [f for f in fs if (f.topic, f.file, f.test, f.index) not in skip]
              for t, fs in by_test.items()}
    out: list[tuple[str, dict[Fill, str], list[Typed]]] = []
    tests = [t for t in by_test if usable[t]]
    # value tricks, taking turns over the koans: variant v gives koan i trick (v + i)
    for v in range(len(VALUE_TRICKS)):
        repl: dict[Fill, str] = {f: f.text for fs in by_test.values() for f in fs}
        touched: list[Typed] = []
        for i, test in enumerate(tests):
            trick = VALUE_TRICKS[(v + i) % len(VALUE_TRICKS)]
            for fill in usable[test]:
                text = _trick_text(trick, fill, funcs.get(test))
                if text is not None:
                    repl[fill] = text
                    touched.append(Typed(test, trick, fill))
                    break
        if touched:
            out.append((f"v{v}", repl, touched))
    # restated left sides, and tuples of parents at exception blanks
    repl = {f: f.text for fs in by_test.values() for f in fs}
    touched = []
    for test in tests:
        for fill in usable[test]:
            if fill.blank_kind == "___":
                repl[fill] = f"({fill.text}, BaseException)"
                touched.append(Typed(test, "tuple", fill))
                break
            left = _left_side(fill, funcs[test], answer) if test in funcs else None
            if left is not None:
                repl[fill] = left
                touched.append(Typed(test, "restate", fill))
                break
    if touched:
        out.append(("r", repl, touched))
    # the first fill rebinds the blanks; every other koan keeps its blanks
    first = next((f for t in tests for f in usable[t] if f.blank_kind == "__"), None)
    if first is not None and len(tests) > 1:
        repl = {f: f.text for f in usable[first.test]}
        repl[first] = (f'(setattr(__import__("builtins"), "__", {first.text}), '
                       f'setattr(__import__("builtins"), "___", ZeroDivisionError), {first.text})[2]')
        touched = [Typed(t, "rebind", None) for t in tests if t != first.test]
        out.append(("b", repl, touched))
    return out


def _tests(tree: ast.Module) -> list[tuple[str, ast.AST]]:
    from ..course import test_functions

    return list(test_functions(tree))


def tricks_pass(root: Path, files: list[KoanFile], jobs: int, report: Report,
                skipped: set[str], unevaluated: set[tuple[str, str, str, int]]) -> None:
    planned: list[tuple[str, list[Typed]]] = []
    with engine.scratch(root, prefix="koans-tricks-") as scratch:
        targets: list[str] = []
        for kf in files:
            if any(f"answers/{kf.topic}/{kf.name}::{t}" in skipped for t in kf.tests):
                continue  # a file that skips here (torch, CUDA) proves nothing here
            answer = kf.answer_path.read_text(encoding="utf-8")
            koan = kf.koan_path.read_text(encoding="utf-8")
            hints = root / "koans" / kf.topic / "hints.toml"
            for label, repl, touched in variants(kf, answer, unevaluated):
                text = substitute_all(answer, {f: r for f, r in repl.items() if r != f.text}
                                      | {f: f.blank_kind for f in kf.fills if f not in repl})
                name = f"{kf.name[:-3]}__t{label}.py"
                files_ = {f"koans/{kf.topic}/{name}": text, f"answers/{kf.topic}/{name}": answer,
                          f".koans/pristine/koans/{kf.topic}/{name}": koan}
                if hints.is_file():
                    files_[f"koans/{kf.topic}/hints.toml"] = hints.read_text(encoding="utf-8")
                engine.write(scratch, files_)
                rel = f"koans/{kf.topic}/{name}"
                # the koans each trick touches; the whole file where the first koan rebinds
                # the blanks for the ones after it
                targets += [rel] if label == "b" else dict.fromkeys(f"{rel}::{t.test}" for t in touched)
                planned.append((rel, touched))
        if not targets:
            return
        results = pytest_run(scratch, targets, jobs, "tricks", limit=LIMIT)
    for rel, touched in planned:
        for typed in touched:
            row = results.of(rel, typed.test)
            where = f"koans/{rel.split('/')[1]}/{rel.split('/')[2].split('__t')[0]}.py::{typed.test}"
            if row["kind"] == "skipped":
                continue
            reason = str(row.get("message", ""))
            if row["kind"] in ("passed", "changed") or (
                    row["kind"] == "wrong" and typed.trick != "restate" and WHY[typed.trick] not in reason):
                report.breach(where, f"the trick `{typed.trick}` typed "
                              + (f"at line {typed.fill.lineno} " if typed.fill else "")
                              + f"does not fail as it must ({row['kind']}: {first_line(row)})",
                              "make the koan's answer a value the plugin can evaluate where the "
                              "blank stands (see koanrunner/plugin/fills.py)")
            else:
                report.count(f"tricks failing ({typed.trick})" if typed.trick in ("rebind", "restate", "tuple")
                             else "tricks failing (value)")
