"""The katas' checks: each kata keeps its promises, or each breach is named.

A kata is ``koans/katas/NN_name/`` (README.md, hints.toml, test_steps.py and the stub module the
pair writes) with ``answers/katas/NN_name/`` (the same test_steps.py, the reference module and
wrong.toml, the wrong implementations: kept with the answers, since each is the reference with
one line changed). Proven here:

- the files: the same steps in koans/ and answers/, byte for byte; one stub module and its
  reference, offering the same functions with the same parameters; both katas' conftests
  identical; every step has a lesson (docstring) and no koan blank; the README lists every step,
  in order; hints.toml hints every step and names only steps; wrong.toml parses and each entry
  names a function of the reference and a step;
- the stub fails every step (each run on its own), each on a NotImplementedError of the stub;
- the reference passes every step, on this Python;
- each wrong implementation (a function of the reference replaced, as listed in wrong.toml)
  passes every step before its ``step`` and fails that one;
- each step after the first needs the one before it: with what the step before first used put
  back to a stub, the step fails; or else a wrong implementation caught by the step before is
  caught by this step too.
"""

from __future__ import annotations

import contextlib
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from ..kata.steps import write_conftest
from . import engine
from .engine import Breach, first_line
from .katafiles import ANSWER_KATAS, KATAS, STEPS, Kata, kata_names, rel, static_checks
from .surgery import partial, splice, stubbed

STEP_TIMEOUT = float(os.environ.get("KATACHECK_STEP_TIMEOUT", "120"))
INI = "[pytest]\naddopts = -p no:cacheprovider\n"


# ---------------------------------------------------------------------------------------------
# Running variants of a kata: each a folder with the steps and one version of the module


def run_variants(root: Path, kata: Kata, variants: dict[str, str], plan: dict[str, list[str] | None],
                 trace: str | None = None) -> dict[str, Any]:
    """Run the chosen steps (None: all) of each variant (label -> module source) in one pytest
    process, every step revealed. Returns {"results": {label: {step: verdict}}, "broken":
    {label: message}, "traced": {step: [functions]}}, or {"error": why}."""
    with engine.scratch(prefix="katacheck-") as base:
        katas = base / "katas"
        katas.mkdir()
        write_conftest(katas)
        files = {"pytest.ini": INI}
        targets = []
        for label, source in variants.items():
            folder = f"katas/{kata.name}--{label}"
            files[f"{folder}/{STEPS}"] = kata.steps_text
            files[f"{folder}/{kata.module}"] = source
            chosen = plan.get(label)
            targets += [f"{folder}/{STEPS}::{step}" for step in chosen] if chosen else [folder]
        engine.write(base, files)
        traced_module = base / "katas" / f"{kata.name}--{trace}" / kata.module if trace else None
        got = engine.run(base, ["-c", str(base / "pytest.ini"), "--rootdir", str(base),
                                "--import-mode=importlib", "--tb=no", "-W",
                                "ignore::DeprecationWarning", *targets],
                         limit=STEP_TIMEOUT, trace=traced_module,
                         env={"KOANS_KATA_ALL_STEPS": "1", "PYTHONHASHSEED": "0",
                              "HYPOTHESIS_PROFILE": "katacheck"})
    if got.error:
        return {"error": got.error}
    results: dict[str, dict[str, Any]] = {}
    for nodeid, verdict in got.verdicts.items():
        label = nodeid.split("/")[1].split("--", 1)[1]
        results.setdefault(label, {})[verdict.get("step") or nodeid.split("::")[-1]] = verdict
    broken = {path.split("/")[1].split("--", 1)[1]: first_line(v) for path, v in got.files.items()
              if v.get("kind") != "skipped" and path.count("/") >= 2}
    traced = {nodeid.split("::")[-1]: names for nodeid, names in got.traced.items()}
    return {"results": results, "broken": broken, "traced": traced}


def stub_fails_every_step(label: str, file_where: str, called: str, where: str, steps: list[str],
                          results: dict[str, Any], broken: dict[str, str], breaches: list[Breach]) -> None:
    """A stub as shipped fails every step, each on a NotImplementedError of its own."""
    if label in broken:
        breaches.append(Breach(file_where, f"{called} does not load: {broken[label]}", "fix the stub"))
        return
    for step in steps:
        verdict = results.get(label, {}).get(step, {})
        kind = verdict.get("kind")
        if kind == "passed":
            breaches.append(Breach(f"{where}/{STEPS}::{step}", f"the step passes on {called} as shipped",
                                   "make the step call what the pair has to write"))
        elif kind != "stub":
            breaches.append(Breach(f"{where}/{STEPS}::{step}", f"on {called} the step fails, but not on "
                                   f"a NotImplementedError of the stub ({kind}): {first_line(verdict)}",
                                   "make the step fail because the code is not written yet, not for "
                                   "another reason"))


def check_kata(root: Path, kata: Kata, breaches: list[Breach], counts: dict[str, int]) -> None:
    where = rel(kata.folder, root)
    steps = kata.steps
    variants = {"stub": kata.stub, "reference": kata.reference}
    plan: dict[str, list[str] | None] = {"stub": None, "reference": None}
    if kata.hard:
        variants["hard"], plan["hard"] = kata.hard, None
    wrong_sources: dict[str, str] = {}
    for wrong in kata.wrong:
        label = f"wrong{wrong.index}"
        try:
            wrong_sources[label] = splice(kata.reference, wrong.function, wrong.source)
        except (KeyError, SyntaxError) as err:
            breaches.append(Breach(f"{rel(kata.answer_folder, root)}/wrong.toml[{wrong.index}]", f"cannot put it in place: {err}",
                             "name a function of the reference"))
            continue
        at = steps.index(wrong.step)
        variants[label] = wrong_sources[label]
        plan[label] = steps[:at + 2]  # the steps before, its own, and the next (the order proof)
    data = run_variants(root, kata, variants, plan, trace="reference")
    if "error" in data:
        breaches.append(Breach(where, data["error"], "run the steps by hand: KOANS_KATA_ALL_STEPS=1 "
                         f"pytest {where}"))
        return
    results, broken = data["results"], data["broken"]
    module_where = f"{where}/{kata.module}"
    answer_where = f"{rel(kata.answer_folder, root)}/{kata.module}"
    # the stub (and the harder stub) fail every step, on their NotImplementedError
    for label, file_where, called in (("stub", module_where, "the stub"),
                                      ("hard", f"{where}/hard/{kata.module}", f"the harder stub hard/{kata.module}")):
        if label in variants:
            stub_fails_every_step(label, file_where, called, where, steps, results, broken, breaches)
            counts["stub_steps"] += len(steps)
    # the reference passes every step
    if "reference" in broken:
        breaches.append(Breach(answer_where, f"the reference does not load: {broken['reference']}", "fix it"))
        return
    ref = results.get("reference", {})
    for step in steps:
        verdict = ref.get(step, {})
        if verdict.get("kind") != "passed":
            breaches.append(Breach(f"{rel(kata.answer_folder, root)}/{STEPS}::{step}",
                             f"the reference does not pass this step on Python "
                             f"{sys.version_info[0]}.{sys.version_info[1]} ({verdict.get('kind')}): "
                             f"{first_line(verdict)}", "fix the reference or the step"))
    counts["reference_steps"] += len(steps)
    # each wrong implementation fails at its step
    caught_next: dict[str, bool] = {}
    for wrong in kata.wrong:
        label = f"wrong{wrong.index}"
        if label not in variants:
            continue
        place = f"{rel(kata.answer_folder, root)}/wrong.toml[{wrong.index}] ({wrong.function})"
        if label in broken:
            breaches.append(Breach(place, f"the module does not load with it: {broken[label]}", "fix its source"))
            continue
        got = results.get(label, {})
        at = steps.index(wrong.step)
        first_red = next((s for s in steps[:at + 1] if got.get(s, {}).get("kind") != "passed"), None)
        if first_red is None:
            breaches.append(Breach(place, f"it passes {wrong.step}: the step does not catch it",
                             "sharpen the step, or name the step that does catch it"))
        elif first_red != wrong.step:
            breaches.append(Breach(place, f"it fails {first_red} already, before {wrong.step} "
                             f"({first_line(got.get(first_red, {}))})",
                             f"name step = \"{first_red}\", or make it pass the steps before"))
        else:
            counts["wrong"] += 1
            if at + 1 < len(steps):
                nxt = steps[at + 1]
                caught_next[wrong.step] = caught_next.get(wrong.step, False) or \
                    got.get(nxt, {}).get("kind") not in ("passed", None)
    # each step needs new code: with what the steps before it call written, it is red
    traced = data.get("traced", {})
    needs_new: dict[str, str] = {}
    used: set[str] = set()
    for k, step in enumerate(steps):
        if k:
            with contextlib.suppress(KeyError, SyntaxError):
                needs_new[f"new{k}"] = partial(kata.stub, kata.reference, sorted(used))
        used.update(traced.get(step, []))
    if needs_new:
        more = run_variants(root, kata, needs_new, {label: [steps[int(label[3:])]] for label in needs_new})
        for label in needs_new if "error" not in more else ():
            k = int(label[3:])
            kind = more["results"].get(label, {}).get(steps[k], {}).get("kind")
            if label not in more["broken"] and kind == "passed":
                breaches.append(Breach(f"{where}/{STEPS}::{steps[k]}",
                                       f"step {k + 1} is green as soon as step {k} is: with only "
                                       "what the steps before it call written, it passes, so its "
                                       "lesson is never shown",
                                       "merge it into the step before, reorder, or make it call "
                                       "something new"))
            else:
                counts["new_code"] = counts.get("new_code", 0) + 1
    # each step needs the one before
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
            breaches.append(Breach(where, more["error"], "run the steps by hand"))
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
        breaches.append(Breach(f"{where}/{STEPS}::{steps[k]}",
                         f"step {k + 1} does not need step {k} ({steps[k - 1]}): it passes with "
                         + (f"{', '.join(before)} (what step {k} first used) put back to a stub"
                            if before else "nothing new used by step " + str(k))
                         + ", and no wrong implementation caught by step "
                         f"{k} is caught by step {k + 1}",
                         f"reorder the steps, or list a wrong implementation for {steps[k - 1]} "
                         f"that {steps[k]} catches too"))


def check_katas(root: Path, names: list[str] | None = None, jobs: int | None = None
                ) -> tuple[list[Breach], dict[str, int]]:
    """Every kata under ``root/koans/katas`` (or those named): breaches as (where, what, fix),
    and counts of what was proven."""
    root = Path(root).resolve()
    breaches: list[Breach] = []
    counts = {"katas": 0, "steps": 0, "stub_steps": 0, "reference_steps": 0, "wrong": 0,
              "orderings": 0, "new_code": 0}
    base = root / KATAS
    if not base.is_dir():
        return breaches, counts
    for conftest in (base / "conftest.py", root / ANSWER_KATAS / "conftest.py"):
        if not conftest.is_file():
            breaches.append(Breach(rel(conftest, root), "the katas' conftest.py is missing",
                             f"copy {KATAS / 'conftest.py'} there"))
    if all(p.is_file() for p in (base / "conftest.py", root / ANSWER_KATAS / "conftest.py")) and \
            (base / "conftest.py").read_bytes() != (root / ANSWER_KATAS / "conftest.py").read_bytes():
        breaches.append(Breach(rel(root / ANSWER_KATAS / "conftest.py", root),
                         "differs from koans/katas/conftest.py", "keep the two copies identical"))
    allowed = {"conftest.py", "README.md", "__pycache__"}
    for entry in sorted(base.iterdir()):
        if entry.name not in allowed and not entry.name.startswith(".") and not (entry.is_dir() and entry.name[:1].isdigit()):
            breaches.append(Breach(rel(entry, root), "a stray entry among the katas",
                             "katas are folders named NN_name"))
    all_names = kata_names(root)
    for name in names or []:
        if name not in all_names:
            breaches.append(Breach(f"{KATAS.as_posix()}/{name}", "no such kata", f"one of: {', '.join(all_names)}"))
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
            for key in ("stub_steps", "reference_steps", "wrong", "orderings", "new_code"):
                counts[key] += tally[key]
    return breaches, counts
