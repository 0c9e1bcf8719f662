"""A kata read from disk, and the checks its files must pass before any step runs: the same
steps in koans/ and answers/, one stub and its reference with the same functions, lessons,
hints, a README that lists the steps in order, and wrong implementations that name a function
of the reference and a step."""

from __future__ import annotations

import ast
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..course import read_toml
from .engine import Breach
from .surgery import functions

KATAS = Path("koans", "katas")
ANSWER_KATAS = Path("answers", "katas")
STEPS = "test_steps.py"
ALLOWED = {"README.md", "hints.toml", STEPS, "__pycache__", "hard"}  # hard/: the stub, less scaffolded
WRONG = "wrong.toml"  # in answers/katas/NN_name/: the reference with one line changed is a spoiler
BLANKS = ("__", "___")


@dataclass
class Wrong:
    index: int
    function: str
    step: str
    source: str
    why: str


@dataclass
class Kata:
    name: str
    folder: Path
    answer_folder: Path
    steps: list[str] = field(default_factory=list)
    module: str = ""  # the stub's file name: 'ieee754.py'
    stub: str = ""
    hard: str = ""  # hard/<module>: the same API with less scaffolding (``kata --hard``)
    reference: str = ""
    steps_text: str = ""
    wrong: list[Wrong] = field(default_factory=list)


def rel(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def kata_names(root: Path) -> list[str]:
    base = root / KATAS
    if not base.is_dir():
        return []
    return sorted(p.name for p in base.iterdir() if p.is_dir() and p.name[:1].isdigit())


def static_checks(root: Path, name: str, breaches: list[Breach]) -> Kata | None:
    """The files of a kata; None when it cannot be run at all."""
    folder, answers = root / KATAS / name, root / ANSWER_KATAS / name
    kata = Kata(name, folder, answers)
    where = rel(folder, root)

    def breach(place: str, what: str, fix: str) -> None:
        breaches.append(Breach(place, what, fix))

    steps_file = folder / STEPS
    if not steps_file.is_file():
        breach(where, "the kata has no test_steps.py", "add the ordered steps as test_steps.py")
        return None
    kata.steps_text = steps_file.read_text(encoding="utf-8")
    try:
        tree = ast.parse(kata.steps_text)
    except SyntaxError as err:
        breach(f"{where}/{STEPS}:{err.lineno}", f"the steps do not parse: {err.msg}", "fix the syntax")
        return None
    tests = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
             and n.name.startswith("test")]
    kata.steps = [n.name for n in tests]
    if len(kata.steps) < 2:
        breach(f"{where}/{STEPS}", "a kata needs at least two steps", "split the task into ordered steps")
    for node in tests:
        if not ast.get_docstring(node):
            breach(f"{where}/{STEPS}::{node.name}", "the step has no lesson (docstring)",
                   "say in two or three sentences what the step asks and why")
    if any(isinstance(n, ast.Name) and n.id in BLANKS for n in ast.walk(tree)):
        breach(f"{where}/{STEPS}", "a step uses a koan blank (`__` or `___`)",
               "a kata's steps are complete tests; the pair writes the module, not the tests")
    modules = sorted(p for p in folder.glob("*.py") if p.name != STEPS and not p.name.startswith("test_"))
    if len(modules) != 1:
        breach(where, f"a kata has exactly one module for the pair to write; found "
               f"{[p.name for p in modules] or 'none'}", "keep the stub in one module beside test_steps.py")
        return None
    kata.module = modules[0].name
    kata.stub = modules[0].read_text(encoding="utf-8")
    for extra in sorted(p.name for p in folder.iterdir()
                        if p.name not in ALLOWED | {kata.module} and not p.name.startswith(".")):
        breach(f"{where}/{extra}", "a stray file in the kata", "remove it, or list it in katacheck's ALLOWED")
    hard = folder / "hard"
    if hard.exists():
        inside = sorted(p.name for p in hard.iterdir() if p.name != "__pycache__" and not p.name.startswith("."))
        if inside != [kata.module]:
            breach(f"{where}/hard", f"hard/ holds only the harder stub {kata.module}; found {inside}",
                   f"keep one file, hard/{kata.module}")
        if (hard / kata.module).is_file():
            kata.hard = (hard / kata.module).read_text(encoding="utf-8")
    readme = folder / "README.md"
    if not readme.is_file():
        breach(where, "the kata has no README.md", "describe the task and list the steps in order")
    else:
        text = readme.read_text(encoding="utf-8")
        positions = [text.find(step) for step in kata.steps]
        missing = [s for s, at in zip(kata.steps, positions, strict=True) if at < 0]
        if missing:
            breach(f"{where}/README.md", f"the README does not list the steps {missing}",
                   "list every step, in order")
        elif positions != sorted(positions):
            breach(f"{where}/README.md", "the README lists the steps out of order",
                   "list them in the order test_steps.py defines them")
    # answers/
    awhere = rel(answers, root)
    if not (answers / STEPS).is_file() or (answers / STEPS).read_bytes() != steps_file.read_bytes():
        breach(f"{awhere}/{STEPS}", "the answer's steps differ from the kata's (or are missing)",
               f"copy {where}/{STEPS} to {awhere}/")
    reference = answers / kata.module
    if not reference.is_file():
        breach(f"{awhere}/{kata.module}", "the reference implementation is missing",
               "write the module that passes every step")
        return None
    kata.reference = reference.read_text(encoding="utf-8")
    for extra in sorted(p.name for p in answers.iterdir()
                        if p.name not in {STEPS, kata.module, WRONG, "__pycache__"} and not p.name.startswith(".")):
        breach(f"{awhere}/{extra}", "a stray file beside the reference", "remove it")
    try:
        stub_defs, ref_defs = functions(kata.stub), functions(kata.reference)
    except SyntaxError as err:
        breach(where, f"the stub or the reference does not parse: {err.msg} (line {err.lineno})",
               "fix the syntax")
        return None
    for qualname, node in stub_defs.items():
        ref = ref_defs.get(qualname)
        if ref is None:
            breach(f"{where}/{kata.module}::{qualname}", "the stub defines it, the reference does not",
                   "keep the stub's functions in the reference")
        elif [a.arg for a in _params(node)] != [a.arg for a in _params(ref)]:
            breach(f"{where}/{kata.module}::{qualname}", "the stub and the reference take different "
                   "parameters", "give both the same signature")
    _check_hints(root, kata, breach)
    _read_wrong(root, kata, ref_defs, breach)
    return kata


def _params(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.arg]:
    args = node.args
    return [*args.posonlyargs, *args.args, *([args.vararg] if args.vararg else []),
            *args.kwonlyargs, *([args.kwarg] if args.kwarg else [])]


def _check_hints(root: Path, kata: Kata, breach: Any) -> None:
    path = kata.folder / "hints.toml"
    where = rel(path, root)
    if not path.is_file():
        breach(where, "the kata has no hints", "give each step a hint or two, as questions")
        return
    try:
        data = read_toml(path)
    except Exception as err:
        breach(where, f"hints.toml does not parse: {err}", "fix the TOML")
        return
    for key in sorted(set(data) - set(kata.steps)):
        breach(f"{where}[{key}]", "hints for a step that does not exist", "name a step of test_steps.py")
    for step in kata.steps:
        hints = data.get(step, {}).get("hints") if isinstance(data.get(step), dict) else None
        if not (isinstance(hints, list) and hints and all(isinstance(h, str) and h.strip() for h in hints)):
            breach(f"{where}[{step}]", "the step has no hints", 'hints = ["A question that nudges?"]')


def _read_wrong(root: Path, kata: Kata, ref_defs: dict[str, Any], breach: Any) -> None:
    path = kata.answer_folder / WRONG
    where = rel(path, root)
    if not path.is_file():
        breach(where, "the kata lists no wrong implementations",
               "add [[wrong]] entries: function, step, why, source")
        return
    try:
        entries = read_toml(path).get("wrong", [])
    except Exception as err:
        breach(where, f"wrong.toml does not parse: {err}", "fix the TOML")
        return
    if len(entries) < 2:
        breach(where, "a kata lists at least two plausible wrong implementations",
               "add [[wrong]] entries: function, step, why, source")
    for index, entry in enumerate(entries):
        place = f"{where}[{index}]"
        if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) and str(entry.get(k)).strip()
                                                  for k in ("function", "step", "source", "why")):
            breach(place, "an entry needs function, step, why and source (strings)", "fill them in")
            continue
        if entry["function"] not in ref_defs:
            breach(place, f"{entry['function']} is not a function of the reference", "name one it defines")
            continue
        if entry["step"] not in kata.steps:
            breach(place, f"{entry['step']} is not a step of the kata", "name a step of test_steps.py")
            continue
        try:
            tree = ast.parse(textwrap.dedent(entry["source"]))
        except SyntaxError as err:
            breach(place, f"the source does not parse: {err.msg} (line {err.lineno})", "fix the syntax")
            continue
        last = entry["function"].rsplit(".", 1)[-1]
        if not any(isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == last
                   for n in tree.body):
            breach(place, f"the source does not define {last}", f"write `def {last}(...)`")
            continue
        kata.wrong.append(Wrong(index, entry["function"], entry["step"], entry["source"], entry["why"]))
