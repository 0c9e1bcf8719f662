"""The integrity checker: proves the course keeps its promises, or names each breach.

    python tools/check.py                 # everything, mutants included
    python tools/check.py --topic 01_floats --topic 02_integers_and_bits
    python tools/check.py --quick         # skip the mutation pass

It proves, and exits 1 on any breach:
- koans/ and answers/ hold the same test files, and each answer's AST equals its koan's with the
  blanks replaced (comments aside); no stray files; test names unique in a topic;
- every koan has a lesson (docstring), at least one blank (pre-solved intro koans aside) and a
  hint; hints.toml names only real koans and its misconceptions parse;
- every koan fails as shipped, and fails on its blank (not on a SyntaxError, an ImportError or an
  unrelated error); pre-solved koans pass;
- every answer passes (skips, e.g. CUDA koans on a CPU machine, are counted and listed);
- every fill has teeth: each plausible wrong value (see CONTRIBUTING.md) and each listed
  misconception, put in the fill's place, makes the answer fail.
"""

from __future__ import annotations

import argparse
import ast
import builtins
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from koanrunner.course import align, copy_support, is_presolved, read_source, read_toml, test_functions  # tools/ is on no path of its own

ROOT = Path(__file__).resolve().parent.parent
BLANKS = ("__", "___")
TOPIC_FILES = {"README.md", "hints.toml"}
SIBLING_EXCEPTIONS = (
    "TypeError", "ValueError", "KeyError", "IndexError", "AttributeError", "ZeroDivisionError",
    "RuntimeError", "NameError", "OverflowError", "StopIteration", "OSError", "AssertionError",
)  # fmt: skip
SIBLING_TYPES = ("int", "float", "str", "bytes", "bool", "list", "tuple", "dict", "set", "complex")
HELP_TOPIC = "check only this topic folder (repeatable), e.g. 01_floats"
HELP_QUICK = "skip the mutation pass (structure, koans and answers only)"
HELP_ROOT = "the course to check (default: the checkout this file lives in)"
HELP_NO_SKIPS = "a koan or answer that skips here is a breach (the GPU job: cuda koans must run)"
HELP_COINS = "list every bare True/False/0/1 fill, and the boolean ones whose name may state them"
HELP_STATIC = "only the static pass: files, ASTs, lessons, hints, give-aways, coin flips (seconds)"
HELP_JOBS = "pytest-xdist workers for the dynamic passes (default: 2 where xdist is installed)"


# --------------------------------------------------------------------------------------------
# Findings


@dataclass
class Breach:
    where: str
    what: str
    fix: str

    def __str__(self) -> str:
        return f"BREACH {self.where}: {self.what}\n       fix: {self.fix}"


@dataclass
class Fill:
    """One blank of a koan and the expression that fills it in the answer."""

    topic: str
    file: str  # test file name
    test: str  # qualified test name (Class::test or test)
    index: int  # blank index within its test, in source order
    lineno: int
    col: int
    end_lineno: int
    end_col: int
    text: str  # the fill's source
    node: ast.expr
    in_version_branch: bool = False  # inside an `if` on sys.version_info


@dataclass
class KoanFile:
    topic: str
    name: str
    koan_path: Path
    answer_path: Path
    tests: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    fills: list[Fill] = field(default_factory=list)


@dataclass
class Report:
    breaches: list[Breach] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    coins: dict[str, tuple[int, int]] = field(default_factory=dict)
    coin_list: list[str] = field(default_factory=list)

    def breach(self, where: str, what: str, fix: str) -> None:
        self.breaches.append(Breach(where, what, fix))

    def count(self, key: str, n: int = 1) -> None:
        self.counts[key] = self.counts.get(key, 0) + n


# --------------------------------------------------------------------------------------------
# Static pass: files, ASTs, lessons, hints


NOT_TOPICS = {"katas", "__pycache__"}


def topics(root: Path, only: list[str], report: Report | None = None) -> list[str]:
    names = {p.name for base in ("koans", "answers") for p in (root / base).iterdir()
             if p.is_dir() and p.name not in NOT_TOPICS and not p.name.startswith(".")}
    for name in sorted(names):
        if not (len(name) > 3 and name[:2].isdigit() and name[2] == "_") and report is not None:
            report.breach(f"koans/{name}", "a topic folder without its number: pytest and the "
                          "runner walk it, in an order nobody chose",
                          "name it NN_topic (two digits, an underscore), e.g. 17_" + name)
    names = {n for n in names if len(n) > 3 and n[:2].isdigit() and n[2] == "_"}
    if only:
        missing = sorted(set(only) - names)
        if missing:
            raise SystemExit(f"check: --topic {missing[0]!r} is not a folder of koans/ or answers/")
        names &= set(only)
    return sorted(names)


def compare(kf: KoanFile, koan_text: str, answer_text: str, koan: ast.Module, report: Report) -> None:
    """The answer against its koan through the course model's alignment (the same one the
    plugin uses on a learner's file): blanks may differ, nothing else."""
    found = align(koan_text, answer_text)
    if found is None:
        return
    for test, line in sorted(found.changed.items(), key=lambda item: item[1])[:1]:
        report.breach(f"answers/{kf.topic}/{kf.name}:{line}",
                      "the answer differs from its koan beyond the blanks"
                      + (f" (in {test})" if test else " (outside any koan)"),
                      "make the answer the koan with each blank replaced, nothing else")
    in_tests = {id(n) for _, func in test_functions(koan) for n in ast.walk(func)}
    for node in ast.walk(koan):
        if isinstance(node, ast.Name) and node.id in BLANKS and id(node) not in in_tests:
            report.breach(f"koans/{kf.topic}/{kf.name}:{node.lineno}", "a blank outside any test function",
                          "move it into a koan")
    for filled in found.fills:
        where = f"answers/{kf.topic}/{kf.name}:{filled.lineno}"
        if not filled.filled:
            report.breach(where, "the answer still has a blank", "fill it in the answer")
            continue
        a = filled.node
        kf.fills.append(Fill(kf.topic, kf.name, filled.test, filled.index, a.lineno, a.col_offset,
                             a.end_lineno or a.lineno, a.end_col_offset or 0, filled.text, a,
                             filled.in_version_branch))


def static_pass(root: Path, names: list[str], report: Report) -> list[KoanFile]:
    files: list[KoanFile] = []
    for topic in names:
        kdir, adir = root / "koans" / topic, root / "answers" / topic
        if not kdir.is_dir() or not adir.is_dir():
            missing = "answers" if kdir.is_dir() else "koans"
            report.breach(f"{missing}/{topic}", "the topic exists on one side only",
                          f"create {missing}/{topic} with the same test files")  # fmt: skip
            continue
        for required in sorted(TOPIC_FILES):
            if not (kdir / required).is_file():
                report.breach(f"koans/{topic}/{required}", "missing", f"write koans/{topic}/{required}")
        kfiles = {p.name for p in kdir.iterdir() if p.name != "__pycache__"}
        afiles = {p.name for p in adir.iterdir() if p.name != "__pycache__"}
        for stray in sorted(kfiles - TOPIC_FILES - {n for n in kfiles if _is_test_file(n)}):
            report.breach(f"koans/{topic}/{stray}", "a stray file", "remove it, or name it test_*.py")
        for stray in sorted(afiles - {n for n in afiles if _is_test_file(n)}):
            report.breach(f"answers/{topic}/{stray}", "a stray file", "answers/ holds only test files")
        ktests, atests = {n for n in kfiles if _is_test_file(n)}, {n for n in afiles if _is_test_file(n)}
        for name in sorted(ktests ^ atests):
            side = "answers" if name in ktests else "koans"
            report.breach(f"{side}/{topic}/{name}", "missing: koans/ and answers/ must hold the same files",
                          f"add {side}/{topic}/{name} or remove its twin")  # fmt: skip
        before = len(report.breaches)
        hints = _hints(kdir / "hints.toml", report, topic)
        hints_broken = any("does not parse" in b.what for b in report.breaches[before:])
        seen: dict[str, str] = {}
        for name in sorted(ktests):  # the koans that exist, whether or not their answer does
            tree = parse_or_none(kdir / name)
            for test, _ in test_functions(tree) if tree is not None else ():
                seen.setdefault(test.split("::")[-1], name)
        declared = dict(seen)
        seen = {}
        for name in sorted(ktests & atests):
            kf = KoanFile(topic, name, kdir / name, adir / name)
            ktext = kf.koan_path.read_text(encoding="utf-8")
            atext = kf.answer_path.read_text(encoding="utf-8")
            try:
                ktree = ast.parse(ktext, filename=str(kf.koan_path))
                atree = ast.parse(atext, filename=str(kf.answer_path))
            except SyntaxError as err:
                report.breach(f"{err.filename}:{err.lineno}", f"SyntaxError: {err.msg}", "fix the syntax")
                continue
            compare(kf, ktext, atext, ktree, report)
            _number_fills(kf)
            tests_here = dict(test_functions(ktree))
            for fill in kf.fills:
                func = tests_here.get(fill.test)
                restated = restates(fill, atree) if func is not None else None
                if restated:
                    report.breach(f"answers/{topic}/{name}:{fill.lineno}",
                                  f"the fill `{fill.text}` {restated}: it has no teeth",
                                  "fill with the value itself, as the learner would type it")
                if func is not None and gives_away(fill.text, func):
                    report.breach(
                        f"koans/{topic}/{name}::{fill.test}",
                        f"the fill `{fill.text}` (line {fill.lineno}) stands in the koan's own "
                        "name or docstring: the koan can be solved by copying",
                        "state the principle or mechanism, not the value; the answer is shown "
                        "after the pass",
                    )
            for test, func in test_functions(ktree):
                kf.tests[test] = func
                where = f"koans/{topic}/{name}::{test}"
                short = test.split("::")[-1]
                if short in seen:
                    report.breach(where, f"the test name is used twice in the topic (also {seen[short]})",
                                  "give every koan in a topic its own name")  # fmt: skip
                seen[short] = name
                if not (ast.get_docstring(func) or "").strip():
                    report.breach(where, "no lesson", "give the koan a docstring that says why")
                n_blanks = sum(f.test == test for f in kf.fills)
                if is_presolved(func):
                    if n_blanks:
                        report.breach(where, "a pre-solved koan has a blank", "drop the blank or the marker")
                    if not topic.startswith("00"):
                        report.breach(where, "only the intro may ship pre-solved koans",
                                      "give the koan a blank")  # fmt: skip
                elif not n_blanks:
                    report.breach(where, "no blank", "replace the value the koan teaches with __ or ___")
                entry = hints.get(short)
                if hints_broken:
                    pass  # the parse error is the breach; no hint can be read until it is fixed
                elif not isinstance(entry, dict) or not entry.get("hints"):
                    report.breach(where, "no hint", f"add [{short}] hints = [...] to koans/{topic}/hints.toml")
                else:
                    for fill in (f for f in kf.fills if f.test == test):
                        for number, hint in enumerate(entry.get("hints", []), 1):
                            if isinstance(hint, str) and states_fill(fill.text, hint):
                                report.breach(where, f"hint {number} states the fill `{fill.text}`",
                                              "ask a question that leads there instead")
                report.count("koans")
            report.count("fills", len(kf.fills))
            files.append(kf)
        topic_files = [kf for kf in files if kf.topic == topic]
        coin_rule(topic, topic_files, report)
        cross_giveaways(topic, topic_files, hints, report)
        for orphan in sorted(set(hints) - set(seen) - set(declared)):
            report.breach(f"koans/{topic}/hints.toml", f"hints for a koan that does not exist: [{orphan}]",
                          "rename the table to the koan's test name or remove it")  # fmt: skip
        report.count("topics")
    return files


GIVEAWAY_EXEMPT = {"true", "false", "none"}
COIN_SHARE = 0.10  # at most this share of a topic's fills may be a bare True/False/0/1
NEGATIONS = re.compile(r"(^|_)(not|no|never|nor|cannot|without|isnt|doesnt|neither|none)(_|$)")


def is_coin_flip(node: ast.expr) -> bool:
    """A bare `True`, `False`, `0` or `1`: a fill a learner can guess with even odds."""
    return isinstance(node, ast.Constant) and (
        type(node.value) is bool or (type(node.value) is int and node.value in (0, 1)))


def coin_rule(topic: str, files: list[KoanFile], report: Report) -> None:
    """Count the topic's coin-flip fills (a breach over COIN_SHARE), and list for a reviewer
    the boolean fills whose koan name may state the claim (a heuristic, never a breach)."""
    fills = [f for kf in files for f in kf.fills]
    coins = [f for f in fills if is_coin_flip(f.node)]
    report.count("coin-flip fills", len(coins))
    report.coins[topic] = (len(coins), len(fills))
    if fills and len(coins) > COIN_SHARE * len(fills):
        report.breach(f"koans/{topic}", f"{len(coins)} of {len(fills)} fills are a bare "
                      f"True/False/0/1 (over {COIN_SHARE:.0%}): the learner guesses instead of "
                      "predicting", "ask for a count, an order, a value or a text the machine "
                      "shows (python tools/check.py --coins lists them)")
    for f in coins:
        where = f"koans/{topic}/{f.file}:{f.lineno} {f.test} = {f.text}"
        report.coin_list.append(where)
        if type(f.node.value) is bool:
            negated = bool(NEGATIONS.search(f.test.split("::")[-1]))
            if f.node.value != negated:
                report.coin_list.append(f"    ^ the name may state it: {f.test.split('::')[-1]}")


def cross_giveaways(topic: str, files: list[KoanFile], hints: dict[str, Any], report: Report) -> None:
    """A hint or misconception note must not write out another koan's fill (of the topic)."""
    fills = [(f.test.split("::")[-1], f.text) for kf in files for f in kf.fills
             if len(normalised(f.text.split("#")[0])) > 2 and not is_coin_flip(f.node)
             and not re.fullmatch(r"-?\d{1,2}", f.text.strip())
             and not isinstance(f.node, (ast.Name, ast.Attribute))]  # class names recur by nature
    for owner, entry in hints.items():
        if not isinstance(entry, dict):
            continue
        prose = [(f"hint {i}", h) for i, h in enumerate(entry.get("hints", []), 1) if isinstance(h, str)]
        prose += [(f"the note on `{m.get('fill')}`", str(m.get("why", "")))
                  for m in entry.get("misconceptions", []) if isinstance(m, dict)]
        for test, text in fills:
            if test == owner:
                continue
            for label, body in prose:
                if states_fill(text, body):
                    report.breach(f"koans/{topic}/hints.toml [{owner}]",
                                  f"{label} writes out the fill `{text}` of {test}",
                                  "keep each koan's answer to itself")


def normalised(text: str) -> str:
    """Text as the giveaway rule compares it: lower case; whitespace, quotes and underscores
    dropped."""
    return re.sub(r"[\s'\"_`]", "", text.lower())


def restates(fill: Fill, answer: ast.Module) -> str | None:
    """Why a fill cannot fail whatever the machine does: it repeats the other side of its
    comparison, or it is computed from the test's own variables."""
    func = next((f for name, f in test_functions(answer) if name == fill.test), None)
    if func is None:
        return None
    for node in ast.walk(func):
        if isinstance(node, ast.Compare) and len(node.comparators) == 1 and \
                any(c.lineno == fill.lineno and c.col_offset == fill.col for c in node.comparators) and \
                ast.dump(node.left) == ast.dump(fill.node):
            return "repeats the left side of its comparison"
    local: set[str] = set()  # bound in the body (a Hypothesis koan's parameters are its inputs)
    for node in ast.walk(func):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            local.add(node.id)
    used = sorted({n.id for n in ast.walk(fill.node) if isinstance(n, ast.Name) and n.id in local})
    if used:
        return f"is computed from the test's own variable{'s' * (len(used) > 1)} {', '.join(used)}"
    return None


def parse_or_none(path: Path) -> ast.Module | None:
    text = read_source(path)
    try:
        return ast.parse(text) if text is not None else None
    except SyntaxError:
        return None


def states_fill(fill_text: str, prose: str) -> bool:
    """Whether a hint writes the fill out, as it would be typed (quotes included), as a whole
    word: `int` in "print" is not, "Is it an int?" is."""
    fill = " ".join(fill_text.split("#")[0].split()).lower()
    if len(normalised(fill)) <= 1 or normalised(fill) in GIVEAWAY_EXEMPT:
        return False
    text = " ".join(prose.replace("`", "").split()).lower()
    return re.search(rf"(?<![\w.]){re.escape(fill)}(?![\w])", text) is not None


def gives_away(fill_text: str, func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a fill's text (normalised) appears in its own test's name or docstring.
    One-character fills and True/False/None are exempt."""
    fill = normalised(fill_text.split("#")[0])
    if len(fill) <= 1 or fill in GIVEAWAY_EXEMPT:
        return False
    return fill in normalised(func.name) or fill in normalised(ast.get_docstring(func) or "")


def _is_test_file(name: str) -> bool:
    return name.startswith("test_") and name.endswith(".py")


def _number_fills(kf: KoanFile) -> None:
    kf.fills.sort(key=lambda f: (f.test, f.lineno, f.col))
    counter: dict[str, int] = {}
    for fill in kf.fills:
        fill.index = counter.get(fill.test, 0)
        counter[fill.test] = fill.index + 1
    kf.fills.sort(key=lambda f: (f.lineno, f.col))


def _hints(path: Path, report: Report, topic: str) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        data = read_toml(path)
    except Exception as err:  # any parse error is the breach
        report.breach(f"koans/{topic}/hints.toml", f"does not parse: {err}", "fix the TOML")
        return {}
    for test, entry in data.items():
        where = f"koans/{topic}/hints.toml [{test}]"
        if not isinstance(entry, dict):
            report.breach(where, "is not a table", "write [test_name] hints = [...]")
            continue
        hints = entry.get("hints", [])
        if not isinstance(hints, list) or not all(isinstance(h, str) and h.strip() for h in hints):
            report.breach(where, "hints must be a list of non-empty strings", 'hints = ["...?"]')
        for i, m in enumerate(entry.get("misconceptions", [])):
            if not isinstance(m, dict) or not str(m.get("fill", "")).strip() or not str(m.get("why", "")).strip():
                report.breach(where, f"misconception {i} needs a fill and a why", 'fill = "..." why = "..."')
                continue
            try:
                ast.parse(m["fill"], mode="eval")
            except SyntaxError:
                report.breach(where, f"misconception fill {m['fill']!r} is not a Python expression",
                              "write the fill as the learner would type it")  # fmt: skip
    return data


# --------------------------------------------------------------------------------------------
# Mutants


def literal(value: object) -> str:
    """Python source for a value, including the floats repr cannot spell."""
    if isinstance(value, float):
        if math.isnan(value):
            return "float('nan')"
        if math.isinf(value):
            return "float('inf')" if value > 0 else "float('-inf')"
    return repr(value)


def value_mutants(value: object) -> list[str]:
    if isinstance(value, bool):
        return [repr(not value)]
    if value is None:
        return ["0", "False"]
    if isinstance(value, int):
        out = [value + 1, value - 1] + ([-value, 0] if value != 0 else [])
        return [repr(v) for v in out if v != value]
    if isinstance(value, float):
        if math.isnan(value):
            return ["0.0", "float('inf')"]
        if math.isinf(value):
            return ["0.0", literal(-value)]
        if value == 0.0:
            return ["1.0"]
        out = [value * 2, -value] + ([value + 1] if value + 1 != value else [])
        return [literal(v) for v in out]
    if isinstance(value, complex):
        return [repr(value + 1), repr(value * 2) if value else "1j"]
    if isinstance(value, (str, bytes)):
        extra = "x" if isinstance(value, str) else b"x"
        out: list[object] = [value + extra]  # type: ignore[operator]
        if value:
            out.append(value[:0])
        if value[::-1] != value:
            out.append(value[::-1])
        return [repr(v) for v in out]
    return []


def mutants_of(fill: Fill) -> list[str]:
    node, text = fill.node, fill.text
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return container_mutants(node, text, fill)
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        value = NotImplemented
    if value is not NotImplemented and not isinstance(value, (tuple, list, set, dict, frozenset)):
        found = value_mutants(value)
        if found:
            return found
    if isinstance(node, ast.Name) and isinstance(getattr(builtins, node.id, None), type):
        return sibling_classes(getattr(builtins, node.id))
    if isinstance(node, ast.Dict):
        return ["None"] + ([_rebuild("{", [f"{ast.unparse(k)}: {ast.unparse(v)}" for k, v in
                zip(node.keys[:-1], node.values[:-1], strict=True) if k is not None], "}")] if node.keys else [])  # fmt: skip
    out = ["None"]
    if isinstance(node, ast.BinOp) or (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)):
        out.append(f"({text}) + 1")
    if isinstance(node, (ast.Compare, ast.BoolOp)) or (
        isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
    ):
        out.append(f"not ({text})")
    return out


def container_mutants(node: ast.Tuple | ast.List | ast.Set, text: str, fill: Fill) -> list[str]:
    items = [ast.unparse(e) for e in node.elts]
    opener, closer = {"Tuple": ("(", ")"), "List": ("[", "]"), "Set": ("{", "}")}[type(node).__name__]
    out: list[str] = []
    if items:
        out.append(_rebuild(opener, items[:-1], closer, empty_set=isinstance(node, ast.Set)))
        if isinstance(node, ast.Set):
            out.append(_rebuild(opener, [*items, "None"], closer))
        else:
            out.append(_rebuild(opener, items + items[:1], closer))
            if items[::-1] != items:
                out.append(_rebuild(opener, items[::-1], closer))
    else:
        out.append(_rebuild(opener, ["None"], closer))
    return out


def _rebuild(opener: str, items: list[str], closer: str, empty_set: bool = False) -> str:
    if empty_set and not items:
        return "set()"
    if opener == "(" and len(items) == 1:
        return f"({items[0]},)"
    return opener + ", ".join(items) + closer


def sibling_classes(cls: type) -> list[str]:
    """Wrong classes to try: siblings, and for an exception its parents too (a blank asks for
    the exact class raised, so `Exception` must not pass for `ZeroDivisionError`)."""
    pool = SIBLING_EXCEPTIONS if issubclass(cls, BaseException) else SIBLING_TYPES
    out = [name for name in pool if name != cls.__name__ and not issubclass(cls, getattr(builtins, name))]
    out = out[:3]
    if issubclass(cls, BaseException) and cls is not BaseException:
        parents = [cls.__mro__[1].__name__, "Exception", "BaseException"]
        out += [p for p in dict.fromkeys(parents) if p != cls.__name__ and p != "object"
                and issubclass(cls, getattr(builtins, p, object))]
    return out


def substitute(text: str, fill: Fill, replacement: str) -> str:
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line.encode("utf-8")))
    raw = text.encode("utf-8")
    begin = starts[fill.lineno - 1] + fill.col
    end = starts[fill.end_lineno - 1] + fill.end_col
    return (raw[:begin] + f"({replacement})".encode() + raw[end:]).decode("utf-8")


# --------------------------------------------------------------------------------------------
# Dynamic passes (pytest in a subprocess, results through the conftest's --koans-json)


def pytest_run(root: Path, targets: list[str], jobs: int, report_name: str) -> dict[str, dict[str, Any]]:
    handle, name = tempfile.mkstemp(prefix=f"koans-check-{report_name}-", suffix=".json")
    os.close(handle)
    out = Path(name)
    out.unlink()
    args = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--no-header",
            "--koans-json", str(out), "--koans-timeout", "60", "-o", "addopts="]  # fmt: skip
    args += ["--strict-markers", "--import-mode=importlib", "--continue-on-collection-errors"]
    if jobs > 1:
        args += ["-n", str(jobs)]
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", HYPOTHESIS_PROFILE="ci")
    proc = subprocess.run(args + targets, cwd=root, env=env, capture_output=True, text=True, check=False)
    if not out.is_file():
        tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-25:])
        raise SystemExit(f"check: pytest did not report ({report_name}); its output ends:\n{tail}")
    data = json.loads(out.read_text(encoding="utf-8"))
    out.unlink()
    return {row["nodeid"]: row for row in data["koans"]}


def outcome_of(results: dict[str, dict[str, Any]], path: str, test: str) -> dict[str, Any]:
    """A test's verdict; for parametrized tests the worst of its cases; a file-level skip or
    collection error stands for every test of the file."""
    nodeid = f"{path}::{test}"
    if nodeid in results:
        return results[nodeid]
    cases = [row for key, row in results.items() if key.startswith(nodeid + "[")]
    if cases:
        failing = [row for row in cases if row["kind"] not in ("passed", "skipped")]
        return failing[0] if failing else cases[0]
    return results.get(path, {"kind": "missing", "message": "pytest did not run it"})


def koans_pass(root: Path, files: list[KoanFile], jobs: int, report: Report) -> None:
    targets = sorted({f"koans/{kf.topic}/{kf.name}" for kf in files})
    if not targets:
        return
    results = pytest_run(root, targets, jobs, "koans")
    for kf in files:
        for test, func in kf.tests.items():
            path = f"koans/{kf.topic}/{kf.name}"
            row = outcome_of(results, path, test)
            where = f"{path}::{test}"
            kind = row["kind"]
            if is_presolved(func):
                if kind != "passed":
                    report.breach(where, f"a pre-solved koan does not pass ({kind})", _first(row))
                continue
            if kind == "blank":
                report.count("koans failing on their blank")
            elif kind == "skipped":
                report.count("koans skipped here")
                report.notes.append(f"unverified here: {where} skipped ({row.get('message', '')})")
            elif kind in ("passed", "changed"):  # "changed": it passed, differing from its answer
                report.breach(where, "passes as shipped", "make the assertion depend on its blank")
            else:
                report.breach(where, f"fails as shipped, but not on its blank ({kind})", _first(row))


def answers_pass(root: Path, files: list[KoanFile], jobs: int, report: Report) -> set[str]:
    """Runs the answers; returns the ids of the answer tests that skipped here."""
    skipped: set[str] = set()
    targets = sorted({f"answers/{kf.topic}/{kf.name}" for kf in files})
    if not targets:
        return skipped
    results = pytest_run(root, targets, jobs, "answers")
    for kf in files:
        for test in kf.tests:
            path = f"answers/{kf.topic}/{kf.name}"
            row = outcome_of(results, path, test)
            if row["kind"] == "passed":
                report.count("answers passing")
            elif row["kind"] == "skipped":
                report.count("answers skipped here")
                report.notes.append(f"skipped here: {path}::{test} ({row.get('message', '')})")
                skipped.add(f"{path}::{test}")
            else:
                report.breach(f"{path}::{test}", f"the answer does not pass ({row['kind']})", _first(row))
    return skipped


def _first(row: dict[str, Any]) -> str:
    return (row.get("message") or "see pytest's output").strip().splitlines()[0]


@dataclass
class Mutant:
    fill: Fill
    replacement: str
    source: str  # "mutant" or "misconception"
    path: str = ""


def mutation_pass(root: Path, files: list[KoanFile], jobs: int, report: Report,
                  skipped: frozenset[str] | set[str] = frozenset()) -> None:
    mutants: list[Mutant] = []
    for kf in files:
        hints = _hints(root / "koans" / kf.topic / "hints.toml", Report(), kf.topic)
        for fill in kf.fills:
            if f"answers/{kf.topic}/{kf.name}::{fill.test}" in skipped:
                # A skipped answer (a torch file without torch) proves nothing, and naming a
                # module that skips at import as `file::test` makes pytest abort the whole run.
                report.count("mutants skipped here", 1 + len(mutants_of(fill)))
                continue
            # The probe puts the blank back: if the test still passes, this Python never
            # evaluates the fill (a version branch not taken here), so its mutants prove nothing.
            mutants.append(Mutant(fill, "__", "probe"))
            for replacement in mutants_of(fill):
                mutants.append(Mutant(fill, replacement, "mutant"))
            short = fill.test.split("::")[-1]
            for m in (hints.get(short) or {}).get("misconceptions", []):
                if isinstance(m, dict) and int(m.get("blank", 0)) == fill.index and m.get("fill"):
                    mutants.append(Mutant(fill, str(m["fill"]), "misconception"))
    if not mutants:
        return
    with tempfile.TemporaryDirectory(prefix="koans-mutants-") as tmp:
        scratch = Path(tmp)
        copy_support(root, scratch)
        texts: dict[Path, str] = {}
        targets: list[str] = []
        for number, mutant in enumerate(mutants):
            fill = mutant.fill
            kf_answer = root / "answers" / fill.topic / fill.file
            text = texts.setdefault(kf_answer, kf_answer.read_text(encoding="utf-8"))
            koan_text = texts.setdefault(root / "koans" / fill.topic / fill.file,
                                         (root / "koans" / fill.topic / fill.file).read_text(encoding="utf-8"))
            mutated = substitute(text, fill, mutant.replacement)
            try:
                compile(mutated, fill.file, "exec")
            except SyntaxError:
                report.notes.append(f"mutant not valid Python, skipped: {fill.file}:{fill.lineno} "
                                    f"{fill.text} -> {mutant.replacement}")  # fmt: skip
                continue
            name = f"{fill.file[:-3]}__m{number:04d}.py"
            twins = {f"koans/{fill.topic}/{name}": koan_text, f"answers/{fill.topic}/{name}": mutated}
            if mutant.source == "misconception":  # typed into the koan, as a learner would
                twins = {f"koans/{fill.topic}/{name}": mutated, f"answers/{fill.topic}/{name}": text,
                         f".koans/pristine/koans/{fill.topic}/{name}": koan_text}
                hints_file = root / "koans" / fill.topic / "hints.toml"
                if hints_file.is_file():
                    (scratch / "koans" / fill.topic).mkdir(parents=True, exist_ok=True)
                    shutil.copy2(hints_file, scratch / "koans" / fill.topic / "hints.toml")
            for where, content in twins.items():
                (scratch / where).parent.mkdir(parents=True, exist_ok=True)
                (scratch / where).write_text(content, encoding="utf-8")
            rel = next(iter(twins)) if mutant.source == "misconception" else f"answers/{fill.topic}/{name}"
            mutant.path = rel
            targets.append(f"{rel}::{fill.test}")
        results = pytest_run(scratch, targets, jobs, "mutants")
    unevaluated: set[int] = set()
    for mutant in mutants:
        probe = mutant.source == "probe" and mutant.path
        if probe and outcome_of(results, mutant.path, mutant.fill.test)["kind"] == "passed":
            unevaluated.add(id(mutant.fill))
            if not mutant.fill.in_version_branch:
                report.breach(
                    f"answers/{mutant.fill.topic}/{mutant.fill.file}:{mutant.fill.lineno}",
                    f"the blank `{mutant.fill.text}` is never evaluated, and not because of a "
                    "Python version: the koan passes with the blank still in it",
                    "put the blank where the koan's code always runs")
                continue
            report.count("fills not evaluated on this Python")
            report.notes.append(
                f"unverified here: answers/{mutant.fill.topic}/{mutant.fill.file}:"
                f"{mutant.fill.lineno} `{mutant.fill.text}` is not evaluated on Python "
                f"{sys.version_info.major}.{sys.version_info.minor}; run the checker there"
            )
    for mutant in mutants:
        if not mutant.path or mutant.source == "probe" or id(mutant.fill) in unevaluated:
            continue
        fill = mutant.fill
        row = outcome_of(results, mutant.path, fill.test)
        where = f"answers/{fill.topic}/{fill.file}::{fill.test}"
        if mutant.source == "misconception" and row["kind"] not in ("passed", "skipped"):
            note = _note_of(root, fill, mutant.replacement)
            if row["kind"] != "wrong":
                report.breach(where, f"the misconception `{mutant.replacement}` fails as {row['kind']}, "
                              "not as a wrong value, so the learner never sees its note",
                              f"make it a value the learner could type ({_first(row)})")
                continue
            if note and note.splitlines()[0].strip() not in row.get("message", ""):
                report.breach(where, f"the misconception `{mutant.replacement}`, typed at its blank, "
                              "fails without showing its note", "see how conftest.py matches typed fills")
                continue
        if row["kind"] in ("passed", "changed"):
            kind = "misconception" if mutant.source == "misconception" else "plausible wrong value"
            report.breach(
                where,
                f"the fill `{fill.text}` on line {fill.lineno} has no teeth: the {kind} "
                f"`{mutant.replacement}` passes too",
                "tighten the assertion so only the true value passes"
                + (", or drop the misconception" if mutant.source == "misconception" else ""),
            )
        elif row["kind"] == "skipped":
            report.count("mutants skipped here")
        else:
            report.count("misconceptions failing" if mutant.source == "misconception" else "mutants killed")


def _note_of(root: Path, fill: Fill, typed: str) -> str:
    hints = _hints(root / "koans" / fill.topic / "hints.toml", Report(), fill.topic)
    for m in (hints.get(fill.test.split("::")[-1]) or {}).get("misconceptions", []):
        if isinstance(m, dict) and str(m.get("fill")) == typed and int(m.get("blank", 0)) == fill.index:
            return str(m.get("why", "")).strip()
    return ""


# --------------------------------------------------------------------------------------------


def default_jobs() -> int:
    try:
        import xdist  # noqa: F401
    except ImportError:
        return 1
    return 2


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tools/check.py", description=__doc__.split("\n")[0])
    parser.add_argument("--topic", action="append", default=[], help=HELP_TOPIC)
    parser.add_argument("--quick", action="store_true", help=HELP_QUICK)
    parser.add_argument("--root", type=Path, default=ROOT, help=HELP_ROOT)
    parser.add_argument("-n", "--jobs", type=int, default=None, help=HELP_JOBS)
    parser.add_argument("-v", "--verbose", action="store_true", help="list skips and notes")
    parser.add_argument("--no-skips", action="store_true", help=HELP_NO_SKIPS)
    parser.add_argument("--coins", action="store_true", help=HELP_COINS)
    parser.add_argument("--static", action="store_true", help=HELP_STATIC)
    args = parser.parse_args(list(argv) if argv is not None else None)
    root = args.root.resolve()
    if not (root / "koans").is_dir() or not (root / "conftest.py").is_file():
        print(f"check: {root} is not a koans course (no koans/ or conftest.py)", file=sys.stderr)
        return 2
    jobs = args.jobs if args.jobs is not None else default_jobs()
    report = Report()
    files = static_pass(root, topics(root, args.topic, report), report)
    skipped: set[str] = set()
    if not args.static:
        koans_pass(root, files, jobs, report)
        skipped = answers_pass(root, files, jobs, report)
    if not args.quick and not args.static:
        mutation_pass(root, files, jobs, report, skipped)
    if not args.topic and not args.static and (root / "koans" / "katas").is_dir():  # the whole course: katas too
        from katacheck import check_katas

        kata_breaches, kata_counts = check_katas(root, jobs=jobs)
        for where, what, fix in kata_breaches:
            report.breach(where, what, fix)
        for key, value in kata_counts.items():
            report.count(f"kata {key}" if not key.startswith("kata") else key, int(value))
    if args.no_skips:
        for note in report.notes:
            if "skipped" in note:
                report.breach(note.split(": ", 1)[-1].split(" ")[0], "skipped here, with --no-skips",
                              "run it where what it needs is present")
    for breach in report.breaches:
        print(breach)
    if args.verbose:
        for note in report.notes:
            print("note:", note)
    if args.coins:
        for row in report.coin_list:
            print("coin:", row)
        for topic, (coins, fills) in sorted(report.coins.items()):
            print(f"coins: {topic} {coins}/{fills} ({coins / fills if fills else 0:.0%})")
    coins, fills = report.counts.get("coin-flip fills", 0), report.counts.get("fills", 0)
    if fills:
        report.counts["coin-flip fills"] = coins  # keep its place in the summary
        report.counts = {k: v for k, v in report.counts.items() if k != "coin-flip fills"} | {
            f"coin-flip fills ({coins / fills:.1%})": coins}
    summary = ", ".join(f"{v} {k}" for k, v in report.counts.items())
    if report.breaches:
        print(f"check: {len(report.breaches)} breach(es). {summary}.")
        return 1
    print(f"check: ok. {summary}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
