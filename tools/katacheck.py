"""The katas' integrity checker: proves each kata keeps its promises, or names each breach.

    python tools/katacheck.py                    # every kata under koans/katas/
    python tools/katacheck.py --kata 01_ieee754  # one kata (repeatable)

A kata is ``koans/katas/NN_name/`` (README.md, hints.toml, wrong.toml, test_steps.py and the stub
module the pair writes) with ``answers/katas/NN_name/`` (the same test_steps.py and the reference
module). It proves, and exits 1 on any breach:

- the files: the same steps in koans/ and answers/, byte for byte; one stub module and its
  reference, offering the same functions with the same parameters; both copies of the katas'
  conftest.py identical; every step has a lesson (docstring) and no koan blank; the README lists
  every step, in order; hints.toml hints every step and names only steps; wrong.toml parses and
  each entry names a function of the reference and a step;
- the stub fails every step (each run on its own), each on a NotImplementedError of the stub;
- the reference passes every step, on this Python;
- each wrong implementation (a function of the reference replaced, as listed in wrong.toml)
  passes every step before its ``step`` and fails that one;
- each step after the first needs the one before it: with what the step before first used put
  back to a stub, the step fails; or else a wrong implementation caught by the step before is
  caught by this step too.

The lead's tools/check.py calls ``check_katas(root)``.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from koanrunner.course import read_toml  # the one TOML reader, shared with the runner

ROOT = Path(__file__).resolve().parents[1]
KATAS = Path("koans", "katas")
ANSWER_KATAS = Path("answers", "katas")
STEPS = "test_steps.py"
ALLOWED = {"README.md", "hints.toml", "wrong.toml", STEPS, "__pycache__"}
STEP_TIMEOUT = float(os.environ.get("KATACHECK_STEP_TIMEOUT", "120"))
WORKER_TIMEOUT = float(os.environ.get("KATACHECK_WORKER_TIMEOUT", "1800"))
BLANKS = ("__", "___")

HELP_KATA = "check only this kata (a folder name under koans/katas/; repeatable)"
HELP_ROOT = "the course checkout (default: the folder above tools/)"
HELP_JOBS = "katas checked at once (default: the number of CPUs)"

Breach = tuple[str, str, str]


# ---------------------------------------------------------------------------------------------
# Source surgery: one function of a module replaced, or put back to a stub


def _defs(tree: ast.Module) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef]:
    """Top-level functions and classes, and the methods of top-level classes, by qualname."""
    found: dict[str, Any] = {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found[node.name] = node
        if isinstance(node, ast.ClassDef):
            for inner in node.body:
                if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    found[f"{node.name}.{inner.name}"] = inner
    return found


def functions(source: str) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    """The functions and methods of a module, by qualname ('encode', 'Heap.collect')."""
    return {name: node for name, node in _defs(ast.parse(source)).items()
            if not isinstance(node, ast.ClassDef)}


def splice(source: str, qualname: str, replacement: str) -> str:
    """``source`` with the definition of ``qualname`` (decorators included) replaced by the
    code in ``replacement``, indented to where the definition stood."""
    node = _defs(ast.parse(source)).get(qualname)
    if node is None:
        raise KeyError(f"{qualname} is not defined in the module")
    first = min([node.lineno] + [d.lineno for d in node.decorator_list])
    last = node.end_lineno or node.lineno
    lines = source.splitlines(keepends=True)
    indent = " " * node.col_offset
    new = textwrap.indent(textwrap.dedent(replacement).strip("\n") + "\n", indent)
    return "".join(lines[:first - 1]) + new + "".join(lines[last:])


def stubbed(source: str, qualname: str) -> str:
    """``source`` with ``qualname`` put back to a stub: same signature, raises NotImplementedError."""
    node = functions(source)[qualname]
    stub = ast.FunctionDef(name=node.name, args=node.args, body=[ast.Raise(
        exc=ast.Call(func=ast.Name("NotImplementedError", ast.Load()),
                     args=[ast.Constant(qualname)], keywords=[]), cause=None)],
        decorator_list=node.decorator_list, returns=node.returns, type_comment=None)
    if sys.version_info >= (3, 12):
        stub.type_params = []
    return splice(source, qualname, ast.unparse(ast.fix_missing_locations(stub)))


def unwritten(source: str) -> list[str]:
    """The functions a stub leaves to the pair: their body raises NotImplementedError."""
    found = []
    for name, node in functions(source).items():
        body = [n for n in node.body if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
        if len(body) == 1 and isinstance(body[0], ast.Raise) and "NotImplementedError" in ast.dump(body[0]):
            found.append(name)
    return found


def partial(stub: str, reference: str, written: list[str]) -> str:
    """The reference as a pair would have it with only ``written`` done: every function the
    stub leaves unwritten, other than those, put back to a stub."""
    source = reference
    for name in unwritten(stub):
        if name not in written and name in functions(source):
            source = stubbed(source, name)
    return source


def take(target: str, reference: str, names: list[str]) -> str:
    """``target`` (a stub) with the definitions of ``names`` taken from ``reference``; module-level
    helpers the reference has and the target lacks come along (appended)."""
    ref_lines = reference.splitlines(keepends=True)
    ref_defs = _defs(ast.parse(reference))
    for name in names:
        node = ref_defs[name]
        first = min([node.lineno] + [d.lineno for d in node.decorator_list])
        text = textwrap.dedent("".join(ref_lines[first - 1:node.end_lineno]))
        if name in _defs(ast.parse(target)):
            target = splice(target, name, text)
        else:
            target = target.rstrip("\n") + "\n\n\n" + text
    return target


# ---------------------------------------------------------------------------------------------
# One kata, read from disk


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
    reference: str = ""
    steps_text: str = ""
    wrong: list[Wrong] = field(default_factory=list)


def _rel(path: Path, root: Path) -> str:
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
    where = _rel(folder, root)

    def breach(place: str, what: str, fix: str) -> None:
        breaches.append((place, what, fix))

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
    awhere = _rel(answers, root)
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
                        if p.name not in {STEPS, kata.module, "__pycache__"} and not p.name.startswith(".")):
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
    where = _rel(path, root)
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
    path = kata.folder / "wrong.toml"
    where = _rel(path, root)
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
        if not isinstance(entry, dict) or not all(isinstance(entry.get(k), str) and entry.get(k).strip()
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


# ---------------------------------------------------------------------------------------------
# Running variants of a kata: each a folder with the steps and one version of the module


def _write_variant(base: Path, label: str, kata: Kata, module_source: str) -> str:
    folder = base / f"{kata.name}--{label}"
    folder.mkdir(parents=True)
    (folder / STEPS).write_text(kata.steps_text, encoding="utf-8")
    (folder / kata.module).write_text(module_source, encoding="utf-8")
    return folder.name


def run_variants(root: Path, kata: Kata, variants: dict[str, str], plan: dict[str, list[str] | None],
                 trace: str | None = None) -> dict[str, Any]:
    """Run the chosen steps of each variant (label -> module source) in one pytest process.
    Returns {"results": {label: {step: verdict}}, "broken": {label: message}, "traced": ...}."""
    with tempfile.TemporaryDirectory(prefix="katacheck-") as tmp:
        base = Path(tmp) / "katas"
        base.mkdir()
        shutil.copy2(root / KATAS / "conftest.py", base / "conftest.py")
        (Path(tmp) / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n", encoding="utf-8")
        folders = {label: _write_variant(base, label, kata, source) for label, source in variants.items()}
        job = {"base": str(base), "module": kata.module, "timeout": STEP_TIMEOUT,
               "plan": {folders[label]: steps for label, steps in plan.items()},
               "trace": folders[trace] if trace else None}
        (Path(tmp) / "job.json").write_text(json.dumps(job), encoding="utf-8")
        env = dict(os.environ, KOANS_KATA_ALL_STEPS="1", PYTHONDONTWRITEBYTECODE="1",
                   PYTHONHASHSEED="0")
        env.pop("KOANS_EVENT_LOG", None)
        try:
            proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", tmp],
                                  cwd=tmp, env=env, capture_output=True, text=True,
                                  timeout=WORKER_TIMEOUT, check=False)
        except subprocess.TimeoutExpired:
            return {"error": f"the steps ran for more than {WORKER_TIMEOUT:g} s and were stopped"}
        try:
            data = json.loads((Path(tmp) / "out.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])
            return {"error": f"the checker's pytest run gave no results (exit {proc.returncode}):\n{tail}"}
    by_folder = {folder: label for label, folder in folders.items()}
    return {"results": {by_folder[f]: steps for f, steps in data["results"].items() if f in by_folder},
            "broken": {by_folder[f]: m for f, m in data["broken"].items() if f in by_folder},
            "traced": data.get("traced", {})}


def check_kata(root: Path, kata: Kata, breaches: list[Breach], counts: dict[str, int]) -> None:
    where = _rel(kata.folder, root)
    steps = kata.steps
    variants = {"stub": kata.stub, "reference": kata.reference}
    plan: dict[str, list[str] | None] = {"stub": None, "reference": None}
    wrong_sources: dict[str, str] = {}
    for wrong in kata.wrong:
        label = f"wrong{wrong.index}"
        try:
            wrong_sources[label] = splice(kata.reference, wrong.function, wrong.source)
        except (KeyError, SyntaxError) as err:
            breaches.append((f"{where}/wrong.toml[{wrong.index}]", f"cannot put it in place: {err}",
                             "name a function of the reference"))
            continue
        at = steps.index(wrong.step)
        variants[label] = wrong_sources[label]
        plan[label] = steps[:at + 2]  # the steps before, its own, and the next (the order proof)
    data = run_variants(root, kata, variants, plan, trace="reference")
    if "error" in data:
        breaches.append((where, data["error"], "run the steps by hand: KOANS_KATA_ALL_STEPS=1 "
                         f"pytest {where}"))
        return
    results, broken = data["results"], data["broken"]
    module_where = f"{where}/{kata.module}"
    answer_where = f"{_rel(kata.answer_folder, root)}/{kata.module}"
    # the stub fails every step, on its NotImplementedError
    if "stub" in broken:
        breaches.append((module_where, f"the stub does not load: {broken['stub']}", "fix the stub"))
    else:
        for step in steps:
            verdict = results.get("stub", {}).get(step, {})
            kind = verdict.get("kind")
            if kind == "passed":
                breaches.append((f"{where}/{STEPS}::{step}", "the step passes on the stub as shipped",
                                 "make the step call what the pair has to write"))
            elif kind != "stub":
                breaches.append((f"{where}/{STEPS}::{step}", f"on the stub the step fails, but not on "
                                 f"a NotImplementedError of the stub ({kind}): "
                                 f"{_first(verdict)}", "make the step fail because the code is not "
                                 "written yet, not for another reason"))
        counts["stub_steps"] += len(steps)
    # the reference passes every step
    if "reference" in broken:
        breaches.append((answer_where, f"the reference does not load: {broken['reference']}", "fix it"))
        return
    ref = results.get("reference", {})
    for step in steps:
        verdict = ref.get(step, {})
        if verdict.get("kind") != "passed":
            breaches.append((f"{_rel(kata.answer_folder, root)}/{STEPS}::{step}",
                             f"the reference does not pass this step on Python "
                             f"{sys.version_info[0]}.{sys.version_info[1]} ({verdict.get('kind')}): "
                             f"{_first(verdict)}", "fix the reference or the step"))
    counts["reference_steps"] += len(steps)
    # each wrong implementation fails at its step
    caught_next: dict[str, bool] = {}
    for wrong in kata.wrong:
        label = f"wrong{wrong.index}"
        if label not in variants:
            continue
        place = f"{where}/wrong.toml[{wrong.index}] ({wrong.function})"
        if label in broken:
            breaches.append((place, f"the module does not load with it: {broken[label]}", "fix its source"))
            continue
        got = results.get(label, {})
        at = steps.index(wrong.step)
        first_red = next((s for s in steps[:at + 1] if got.get(s, {}).get("kind") != "passed"), None)
        if first_red is None:
            breaches.append((place, f"it passes {wrong.step}: the step does not catch it",
                             "sharpen the step, or name the step that does catch it"))
        elif first_red != wrong.step:
            breaches.append((place, f"it fails {first_red} already, before {wrong.step} "
                             f"({_first(got.get(first_red, {}))})",
                             f"name step = \"{first_red}\", or make it pass the steps before"))
        else:
            counts["wrong"] += 1
            if at + 1 < len(steps):
                nxt = steps[at + 1]
                caught_next[wrong.step] = caught_next.get(wrong.step, False) or \
                    got.get(nxt, {}).get("kind") not in ("passed", None)
    # each step needs the one before
    traced = data.get("traced", {})
    introduced: dict[str, list[str]] = {}
    seen: set[str] = set()
    for step in steps:
        new = [name for name in traced.get(step, []) if name not in seen]
        introduced[step] = new
        seen.update(traced.get(step, []))
    unproven = [k for k in range(1, len(steps)) if not caught_next.get(steps[k - 1])]
    order_variants: dict[str, str] = {}
    order_plan: dict[str, list[str] | None] = {}
    for k in unproven:
        names = introduced.get(steps[k - 1]) or []
        if not names:
            continue
        source = kata.reference
        with contextlib.suppress(KeyError, SyntaxError):
            for name in names:
                source = stubbed(source, name)
            order_variants[f"needs{k}"] = source
            order_plan[f"needs{k}"] = [steps[k]]
    proven = {steps[k] for k in range(1, len(steps)) if caught_next.get(steps[k - 1])}
    if order_variants:
        more = run_variants(root, kata, order_variants, order_plan)
        if "error" in more:
            breaches.append((where, more["error"], "run the steps by hand"))
            return
        for label in order_variants:
            k = int(label[len("needs"):])
            kind = more["results"].get(label, {}).get(steps[k], {}).get("kind")
            if label in more["broken"] or kind not in ("passed", None):
                proven.add(steps[k])
    for k in range(1, len(steps)):
        if steps[k] in proven:
            counts["orderings"] += 1
            continue
        before = introduced.get(steps[k - 1]) or []
        breaches.append((f"{where}/{STEPS}::{steps[k]}",
                         f"step {k + 1} does not need step {k} ({steps[k - 1]}): it passes with "
                         + (f"{', '.join(before)} (what step {k} first used) put back to a stub"
                            if before else "nothing new used by step " + str(k))
                         + ", and no wrong implementation caught by step "
                         f"{k} is caught by step {k + 1}",
                         f"reorder the steps, or list a wrong implementation for {steps[k - 1]} "
                         f"that {steps[k]} catches too"))


def _first(verdict: dict[str, Any]) -> str:
    return (str(verdict.get("message") or "").strip().splitlines() or ["(no message)"])[0]


def check_katas(root: Path, names: list[str] | None = None, jobs: int | None = None
                ) -> tuple[list[Breach], dict[str, int]]:
    """Every kata under ``root/koans/katas`` (or those named): breaches as (where, what, fix),
    and counts of what was proven."""
    root = Path(root).resolve()
    breaches: list[Breach] = []
    counts = {"katas": 0, "steps": 0, "stub_steps": 0, "reference_steps": 0, "wrong": 0,
              "orderings": 0}
    base = root / KATAS
    if not base.is_dir():
        return breaches, counts
    for conftest in (base / "conftest.py", root / ANSWER_KATAS / "conftest.py"):
        if not conftest.is_file():
            breaches.append((_rel(conftest, root), "the katas' conftest.py is missing",
                             f"copy {KATAS / 'conftest.py'} there"))
    if all(p.is_file() for p in (base / "conftest.py", root / ANSWER_KATAS / "conftest.py")) and \
            (base / "conftest.py").read_bytes() != (root / ANSWER_KATAS / "conftest.py").read_bytes():
        breaches.append((_rel(root / ANSWER_KATAS / "conftest.py", root),
                         "differs from koans/katas/conftest.py", "keep the two copies identical"))
    allowed = {"conftest.py", "README.md", "__pycache__"}
    for entry in sorted(base.iterdir()):
        if entry.name not in allowed and not entry.name.startswith(".") and not (entry.is_dir() and entry.name[:1].isdigit()):
            breaches.append((_rel(entry, root), "a stray entry among the katas",
                             "katas are folders named NN_name"))
    all_names = kata_names(root)
    for name in names or []:
        if name not in all_names:
            breaches.append((f"{KATAS.as_posix()}/{name}", "no such kata", f"one of: {', '.join(all_names)}"))
    chosen = [n for n in all_names if not names or n in names]
    katas: list[Kata] = []
    for name in chosen:
        kata = static_checks(root, name, breaches)
        if kata is not None:
            katas.append(kata)
            counts["katas"] += 1
            counts["steps"] += len(kata.steps)

    def one(kata: Kata) -> tuple[list[Breach], dict[str, int]]:
        mine: list[Breach] = []
        tally = dict.fromkeys(counts, 0)
        check_kata(root, kata, mine, tally)
        return mine, tally

    with ThreadPoolExecutor(max_workers=max(1, jobs or os.cpu_count() or 1)) as pool:
        for mine, tally in pool.map(one, katas):
            breaches += mine
            for key in ("stub_steps", "reference_steps", "wrong", "orderings"):
                counts[key] += tally[key]
    return breaches, counts


# ---------------------------------------------------------------------------------------------
# The worker: pytest in a fresh process, every step of every variant, the results as JSON


class StepTimeout(Exception):
    """A step ran past the checker's limit: an infinite loop in a variant?"""


class Recorder:
    def __init__(self, job: dict[str, Any]) -> None:
        self.job = job
        self.results: dict[str, dict[str, Any]] = {}
        self.broken: dict[str, str] = {}
        self.traced: dict[str, list[str]] = {}
        self.base = Path(job["base"])
        self.lines: dict[int, str] = {}
        trace = job.get("trace")
        if trace:
            source = (self.base / trace / job["module"]).read_text(encoding="utf-8")
            self.lines = _line_owners(source)

    def pytest_collection_modifyitems(self, config: Any, items: list[Any]) -> None:
        keep, drop = [], []
        for item in items:
            folder = Path(str(item.path)).parent.name
            steps = self.job["plan"].get(folder, [])
            name = getattr(item, "originalname", None) or item.name
            (keep if steps is None or name in steps else drop).append(item)
        if drop:
            items[:] = keep
            config.hook.pytest_deselected(items=drop)

    def pytest_runtest_logreport(self, report: Any) -> None:
        for key, value in report.user_properties:
            if key == "kata":
                folder = Path(report.fspath).parent.name
                self.results.setdefault(folder, {})[value["step"]] = value

    def pytest_collectreport(self, report: Any) -> None:
        if report.failed:
            folder = Path(str(report.fspath)).parent.name
            verdict = getattr(report, "koan_verdict", None) or {}
            self.broken[folder] = str(verdict.get("message") or report.longrepr).splitlines()[0]


def _line_owners(source: str) -> dict[int, str]:
    """Each line of a module -> the qualname of the function or method it belongs to."""
    owners: dict[int, str] = {}
    for qualname, node in functions(source).items():
        first = min([node.lineno] + [d.lineno for d in node.decorator_list])
        for line in range(first, (node.end_lineno or node.lineno) + 1):
            if "." in qualname or line not in owners:
                owners[line] = qualname
    return owners


def worker(tmp: Path) -> int:
    import pytest
    from hypothesis import HealthCheck, Phase, settings

    settings.register_profile("katacheck", derandomize=True, database=None, deadline=None,
                              print_blob=False, phases=[Phase.explicit, Phase.reuse, Phase.generate],
                              suppress_health_check=list(HealthCheck))
    settings.load_profile("katacheck")
    job = json.loads((tmp / "job.json").read_text(encoding="utf-8"))
    recorder = Recorder(job)
    traced_folder = job.get("trace")
    module_file = os.path.normcase(str(Path(job["base"], traced_folder or "-", job["module"])))

    class Timed:
        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_call(self, item: Any) -> Any:
            def time_is_up(signum: int, frame: Any) -> None:
                raise StepTimeout(f"the step ran for more than {job['timeout']:g} s")

            previous = signal.signal(signal.SIGALRM, time_is_up) if hasattr(signal, "SIGALRM") else None
            if previous is not None:
                signal.setitimer(signal.ITIMER_REAL, job["timeout"])
            tracing = traced_folder and Path(str(item.path)).parent.name == traced_folder
            used: set[str] = set()
            if tracing:
                def profile(frame: Any, event: str, arg: Any) -> None:
                    if event == "call" and os.path.normcase(frame.f_code.co_filename) == module_file:
                        owner = recorder.lines.get(frame.f_code.co_firstlineno)
                        if owner:
                            used.add(owner)

                sys.setprofile(profile)
            try:
                yield
            finally:
                if tracing:
                    sys.setprofile(None)
                    name = getattr(item, "originalname", None) or item.name
                    recorder.traced[name] = sorted(used)
                if previous is not None:
                    signal.setitimer(signal.ITIMER_REAL, 0)
                    signal.signal(signal.SIGALRM, previous)

    args = [job["base"], "-q", "-p", "no:cacheprovider", "--import-mode=importlib",
            "-c", str(tmp / "pytest.ini"), "--rootdir", str(tmp), "-o", "console_output_style=classic",
            "--tb=no", "-p", "no:randomly", "-W", "ignore::DeprecationWarning"]
    code = pytest.main(args, plugins=[recorder, Timed()])
    out = {"results": recorder.results, "broken": recorder.broken, "traced": recorder.traced,
           "exit": int(code)}
    (tmp / "out.json").write_text(json.dumps(out), encoding="utf-8")
    return 0


# ---------------------------------------------------------------------------------------------
# The command


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tools/katacheck.py", description=__doc__.split("\n")[0])
    parser.add_argument("--kata", action="append", default=[], help=HELP_KATA)
    parser.add_argument("--root", type=Path, default=ROOT, help=HELP_ROOT)
    parser.add_argument("-j", "--jobs", type=int, default=None, help=HELP_JOBS)
    parser.add_argument("--worker", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker is not None:
        return worker(args.worker)
    started = time.monotonic()
    breaches, counts = check_katas(args.root, args.kata or None, args.jobs)
    for where, what, fix in breaches:
        print(f"BREACH {where}\n    {what}\n    fix: {fix}")
    python = f"{sys.version_info[0]}.{sys.version_info[1]}"
    print(f"katacheck on Python {python}: {counts['katas']} katas, {counts['steps']} steps; "
          f"stubs fail {counts['stub_steps']}, references pass {counts['reference_steps']}, "
          f"{counts['wrong']} wrong implementations caught at their step, "
          f"{counts['orderings']} step orders proven; {len(breaches)} breaches "
          f"({time.monotonic() - started:.0f} s)")
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())
