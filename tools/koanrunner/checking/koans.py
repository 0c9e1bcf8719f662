"""The static pass over koans and answers: the files, each answer's AST against its koan's,
lessons, blanks, hints and misconceptions, fills that give themselves away or restate their
question, and the share of coin-flip fills (a bare True/False/0/1) per topic."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..course import align, is_presolved, read_source, read_toml, restatement, test_functions
from .engine import Report
from ..pictures import parse_picture

BLANKS = ("__", "___")
TOPIC_FILES = {"README.md", "hints.toml"}


@dataclass(eq=False)  # a fill is itself: the tricks pass keys replacements by it
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
    in_version_branch: bool = False  # inside an `if` on the Python's version or build
    blank_kind: str = "__"  # the blank it fills: "__" (a value) or "___" (an exception type)


@dataclass
class KoanFile:
    topic: str
    name: str
    koan_path: Path
    answer_path: Path
    tests: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    fills: list[Fill] = field(default_factory=list)


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
        if not isinstance(a, ast.expr):
            continue
        kf.fills.append(Fill(kf.topic, kf.name, filled.test, filled.index, a.lineno, a.col_offset,
                             a.end_lineno or a.lineno, a.end_col_offset or 0, filled.text, a,
                             filled.in_version_branch, filled.blank))


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
        hints = hints_of(kdir / "hints.toml", report, topic)
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
        precedence_traps(topic, topic_files, hints, report)
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
        value = getattr(f.node, "value", None)
        if type(value) is bool:
            negated = bool(NEGATIONS.search(f.test.split("::")[-1]))
            if value != negated:
                report.coin_list.append(f"    ^ the name may state it: {f.test.split('::')[-1]}")


def precedence_traps(topic: str, files: list[KoanFile], hints: dict[str, Any], report: Report) -> None:
    """A misconception typed as a learner types it, without parentheses, must stand at its
    blank as a whole: if it binds with the code around the blank (``% 2**31 - 1``), the file
    no longer aligns with its koan, and the note is never shown."""
    for kf in files:
        try:
            answer = kf.answer_path.read_text(encoding="utf-8")
        except OSError:
            continue
        for fill in kf.fills:
            entry = hints.get(fill.test.split("::")[-1])
            for m in (entry or {}).get("misconceptions", []) if isinstance(entry, dict) else ():
                if not isinstance(m, dict) or int(m.get("blank", 0)) != fill.index or not m.get("fill"):
                    continue
                typed = str(m["fill"])
                bare, grouped = _typed_at(answer, fill, typed, False), _typed_at(answer, fill, typed, True)
                if bare is not None and grouped is not None and bare != grouped:
                    report.breach(f"koans/{topic}/hints.toml [{fill.test.split('::')[-1]}]",
                                  f"the misconception `{typed}`, typed at its blank as a learner "
                                  "types it, binds with the code around the blank, so its note "
                                  "can never show", "give the blank a line of its own (assign it "
                                  "to a name first), or write the fill so it stands alone")


def _typed_at(answer: str, fill: Fill, typed: str, grouped: bool) -> str | None:
    lines = answer.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line.encode("utf-8")))
    raw = answer.encode("utf-8")
    begin, end = starts[fill.lineno - 1] + fill.col, starts[fill.end_lineno - 1] + fill.end_col
    text = f"({typed})" if grouped else typed
    try:
        return ast.dump(ast.parse((raw[:begin] + text.encode() + raw[end:]).decode("utf-8")))
    except SyntaxError:
        return None


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
    """Why a fill cannot fail whatever the machine does (the course model's rule, shared with
    the plugin, which applies it to what a learner types)."""
    func = next((f for name, f in test_functions(answer) if name == fill.test), None)
    return restatement(func, fill.node) if func is not None else None


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


def hints_of(path: Path, report: Report, topic: str) -> dict[str, Any]:
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
        if "picture" in entry:
            try:
                parse_picture(entry["picture"])
            except ValueError as err:
                report.breach(where, f"the picture is not one: {err}", 'picture = "float_bits(0.1)"')
    return data
