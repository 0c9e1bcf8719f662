"""The dynamic passes over koans: every koan fails as shipped, on its blank; every answer
passes; and every fill has teeth: each plausible wrong value put in its place, and each listed
misconception typed at its blank as a learner would, makes the koan fail (a misconception as a
wrong value that shows its note)."""

from __future__ import annotations

import ast
import builtins
import math
import sys
from dataclasses import dataclass
from pathlib import Path

from ..course import is_presolved
from . import engine
from .engine import Report, first_line
from .koans import Fill, KoanFile, hints_of

SIBLING_EXCEPTIONS = (
    "TypeError", "ValueError", "KeyError", "IndexError", "AttributeError", "ZeroDivisionError",
    "RuntimeError", "NameError", "OverflowError", "StopIteration", "OSError", "AssertionError",
)  # fmt: skip
PYTHON = f"Python {sys.version_info[0]}.{sys.version_info[1]}"
SIBLING_TYPES = ("int", "float", "str", "bytes", "bool", "list", "tuple", "dict", "set", "complex")


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
        ints = [value + 1, value - 1] + ([-value, 0] if value != 0 else [])
        return [repr(v) for v in ints if v != value]
    if isinstance(value, float):
        if math.isnan(value):
            return ["0.0", "float('inf')"]
        if math.isinf(value):
            return ["0.0", literal(-value)]
        if value == 0.0:
            return ["1.0"]
        floats = [value * 2, -value] + ([value + 1] if value + 1 != value else [])
        return [literal(v) for v in floats]
    if isinstance(value, complex):
        return [repr(value + 1), repr(value * 2) if value else "1j"]
    if isinstance(value, (str, bytes)):
        texts: list[object] = [value + "x" if isinstance(value, str) else value + b"x"]
        if value:
            texts.append(value[:0])
        if value[::-1] != value:
            texts.append(value[::-1])
        return [repr(v) for v in texts]
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


def substitute_all(text: str, replacements: dict[Fill, str]) -> str:
    """``text`` with each fill replaced, the last first so that the earlier ones keep their
    place."""
    for fill in sorted(replacements, key=lambda f: (f.lineno, f.col), reverse=True):
        text = substitute(text, fill, replacements[fill])
    return text


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
# Dynamic passes: pytest through the engine, verdicts from the koans' plugin

ARGS = ["--koans-all", "--strict-markers", "--import-mode=importlib", "--continue-on-collection-errors",
        "-o", "addopts="]


def pytest_run(root: Path, targets: list[str], jobs: int, report_name: str,
               limit: float = 60.0) -> engine.Results:
    results = engine.run(root, ARGS + targets, jobs=jobs, limit=limit,
                         env={"HYPOTHESIS_PROFILE": "ci"})
    if results.error:
        raise SystemExit(f"check: pytest did not report ({report_name}): {results.error}")
    return results


def koans_pass(root: Path, files: list[KoanFile], jobs: int, report: Report) -> None:
    targets = sorted({f"koans/{kf.topic}/{kf.name}" for kf in files})
    if not targets:
        return
    results = pytest_run(root, targets, jobs, "koans")
    for kf in files:
        for test, func in kf.tests.items():
            path = f"koans/{kf.topic}/{kf.name}"
            row = results.of(path, test)
            where = f"{path}::{test}"
            kind = row["kind"]
            if is_presolved(func):
                if kind != "passed":
                    report.breach(where, f"a pre-solved koan does not pass ({kind})", first_line(row))
                continue
            if kind == "blank":
                report.count("koans failing on their blank")
            elif kind == "skipped":
                report.count("koans skipped here")
                report.notes.append(f"unverified here: {where} skipped ({row.get('message', '')})")
            elif kind in ("passed", "changed"):  # "changed": it passed, differing from its answer
                report.breach(where, "passes as shipped", "make the assertion depend on its blank")
            else:
                report.breach(where, f"fails as shipped, but not on its blank ({kind})", first_line(row))


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
            row = results.of(path, test)
            if row["kind"] == "passed":
                report.count("answers passing")
                picture = row.get("picture") or {}
                if picture.get("error"):
                    report.breach(f"{path}::{test}", f"its picture does not draw for its answer: "
                                  f"{picture['error']}", "fix the picture's expression in "
                                  "hints.toml (it is evaluated in the koan's module after a pass)")
                elif picture:
                    report.count("pictures drawn")
            elif row["kind"] == "skipped":
                report.count("answers skipped here")
                report.notes.append(f"skipped here: {path}::{test} ({row.get('message', '')})")
                skipped.add(f"{path}::{test}")
            else:
                report.breach(f"{path}::{test}", f"the answer does not pass ({row['kind']})", first_line(row))
    return skipped




@dataclass
class Mutant:
    fill: Fill
    replacement: str
    source: str  # "probe", "mutant" or "misconception"
    path: str = ""
    packed: int = 0  # how many variants share its file


def pack(mutants: list[Mutant]) -> list[list[Mutant]]:
    """The mutants in files: a file holds at most one variant per koan (each fill lives in one
    koan's function, so one koan's variant cannot change what another koan evaluates), and a
    misconception, typed into the koan, never shares a file with a wrong value in the answer.
    Collecting a file costs more than running one koan: this is what makes the pass fast."""
    by_file: dict[tuple[str, str, bool], dict[str, list[Mutant]]] = {}
    for m in mutants:
        key = (m.fill.topic, m.fill.file, m.source == "misconception")
        by_file.setdefault(key, {}).setdefault(m.fill.test, []).append(m)
    out: list[list[Mutant]] = []
    for tests in by_file.values():
        for k in range(max(len(v) for v in tests.values())):
            out.append([v[k] for v in tests.values() if k < len(v)])
    return out


def _survived(results: engine.Results, m: Mutant) -> bool:
    return results.of(m.path, m.fill.test)["kind"] in ("passed", "changed")


def _run_packed(root: Path, packs: list[list[Mutant]], jobs: int, prefix: str = "m") -> engine.Results:
    """Writes each pack as one variant of its koan file, runs their koans, and gives each
    mutant its ``path``."""
    with engine.scratch(root, prefix="koans-mutants-") as scratch:
        texts: dict[Path, str] = {}

        def text_of(path: Path) -> str:
            return texts.setdefault(path, path.read_text(encoding="utf-8"))

        targets: list[str] = []
        work = list(packs)
        for number, group in enumerate(work):
            fill = group[0].fill
            answer = text_of(root / "answers" / fill.topic / fill.file)
            koan_text = text_of(root / "koans" / fill.topic / fill.file)
            mutated = substitute_all(answer, {m.fill: m.replacement for m in group})
            try:
                compile(mutated, fill.file, "exec")
            except SyntaxError:  # a file that does not compile would fail every koan in it
                if len(group) > 1:
                    work.extend([m] for m in group)
                continue
            name = f"{fill.file[:-3]}__{prefix}{number:04d}.py"
            twins = {f"koans/{fill.topic}/{name}": koan_text, f"answers/{fill.topic}/{name}": mutated}
            rel = f"answers/{fill.topic}/{name}"
            if group[0].source == "misconception":  # typed into the koan, as a learner would
                twins = {f"koans/{fill.topic}/{name}": mutated, f"answers/{fill.topic}/{name}": answer,
                         f".koans/pristine/koans/{fill.topic}/{name}": koan_text}
                hints_file = root / "koans" / fill.topic / "hints.toml"
                if hints_file.is_file():
                    twins[f"koans/{fill.topic}/hints.toml"] = text_of(hints_file)
                rel = f"koans/{fill.topic}/{name}"
            engine.write(scratch, twins)
            for m in group:
                m.path, m.packed = rel, len(group)
                targets.append(f"{rel}::{m.fill.test}")
        return pytest_run(scratch, targets, jobs, "mutants")



def mutation_pass(root: Path, files: list[KoanFile], jobs: int, report: Report,
                  skipped: frozenset[str] | set[str] = frozenset()) -> set[tuple[str, str, str, int]]:
    """Every fill's mutants and misconceptions; returns the fills this Python never evaluates
    (topic, file, test, index), whose other variants prove nothing here."""
    mutants: list[Mutant] = []
    for kf in files:
        hints = hints_of(root / "koans" / kf.topic / "hints.toml", Report(), kf.topic)
        for fill in kf.fills:
            if f"answers/{kf.topic}/{kf.name}::{fill.test}" in skipped:
                # A skipped answer (a torch file without torch) proves nothing, and naming a
                # module that skips at import as `file::test` makes pytest abort the whole run.
                report.count("mutants skipped here", 1 + len(mutants_of(fill)))
                continue
            # The probe puts the blank back: if the test still passes, this Python never
            # evaluates the fill (a branch on the version or build not taken here), so its mutants prove nothing.
            mutants.append(Mutant(fill, "__", "probe"))
            for replacement in mutants_of(fill):
                mutants.append(Mutant(fill, replacement, "mutant"))
            short = fill.test.split("::")[-1]
            for m in (hints.get(short) or {}).get("misconceptions", []):
                if isinstance(m, dict) and int(m.get("blank", 0)) == fill.index and m.get("fill"):
                    mutants.append(Mutant(fill, str(m["fill"]), "misconception"))
    if not mutants:
        return set()
    valid = []
    for mutant in mutants:
        try:
            compile(f"({mutant.replacement})", mutant.fill.file, "eval")
        except SyntaxError:
            report.notes.append(f"mutant not valid Python, skipped: {mutant.fill.file}:"
                                f"{mutant.fill.lineno} {mutant.fill.text} -> {mutant.replacement}")
            continue
        valid.append(mutant)
    results = _run_packed(root, pack(valid), jobs)
    # A variant that survived beside others is run again alone, so that nothing another koan
    # of its file left behind can make it look toothless.
    alone = [[m] for m in valid if _survived(results, m) and m.packed > 1]
    if alone:
        again = _run_packed(root, alone, jobs, prefix="again")
        for (m,) in alone:
            results.verdicts[f"{m.path}::{m.fill.test}"] = again.of(m.path, m.fill.test)
    for m in valid:
        if not m.path:
            report.notes.append(f"mutant not valid Python in its file, skipped: {m.fill.file}:"
                                f"{m.fill.lineno} {m.fill.text} -> {m.replacement}")
    unevaluated: set[int] = set()
    for mutant in mutants:
        probe = mutant.source == "probe" and mutant.path
        if probe and results.of(mutant.path, mutant.fill.test)["kind"] == "passed":
            unevaluated.add(id(mutant.fill))
            if not mutant.fill.in_version_branch:
                report.breach(
                    f"answers/{mutant.fill.topic}/{mutant.fill.file}:{mutant.fill.lineno}",
                    f"the blank `{mutant.fill.text}` is never evaluated, and not because of a "
                    "Python version or build: the koan passes with the blank still in it",
                    "put the blank where the koan's code always runs")
                continue
            report.count("fills not evaluated on this Python")
            report.notes.append(
                f"unverified here: answers/{mutant.fill.topic}/{mutant.fill.file}:"
                f"{mutant.fill.lineno} `{mutant.fill.text}` is not evaluated on "
                f"{PYTHON}; run the checker there"
            )
    for mutant in mutants:
        if not mutant.path or mutant.source == "probe" or id(mutant.fill) in unevaluated:
            continue
        fill = mutant.fill
        row = results.of(mutant.path, fill.test)
        where = f"answers/{fill.topic}/{fill.file}::{fill.test}"
        if mutant.source == "misconception" and row["kind"] not in ("passed", "skipped"):
            note = _note_of(root, fill, mutant.replacement)
            if row["kind"] != "wrong":
                report.breach(where, f"the misconception `{mutant.replacement}` fails as {row['kind']}, "
                              "not as a wrong value, so the learner never sees its note",
                              f"make it a value the learner could type ({first_line(row)})")
                continue
            if note and note.splitlines()[0].strip() not in row.get("message", ""):
                report.breach(where, f"the misconception `{mutant.replacement}`, typed at its blank, "
                              "fails without showing its note",
                              "see how the plugin (koanrunner/plugin/sources.py) matches typed fills")
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
    return {(m.fill.topic, m.fill.file, m.fill.test, m.fill.index) for m in mutants
            if m.source == "probe" and id(m.fill) in unevaluated}


def _note_of(root: Path, fill: Fill, typed: str) -> str:
    hints = hints_of(root / "koans" / fill.topic / "hints.toml", Report(), fill.topic)
    for m in (hints.get(fill.test.split("::")[-1]) or {}).get("misconceptions", []):
        if isinstance(m, dict) and str(m.get("fill")) == typed and int(m.get("blank", 0)) == fill.index:
            return str(m.get("why", "")).strip()
    return ""
