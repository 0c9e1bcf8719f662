"""The katas' pytest plugin: a small program written test-first, one step at a time.

A kata folder (``koans/katas/NN_name/``) holds ``test_steps.py`` (the steps, in order), the module
the pair writes (the stub; in ``answers/katas/``, the reference) and a README. This plugin:

- keeps katas out of a run that does not name them: ``pytest koans`` (the solo learner's path)
  and ``pytest answers`` never collect one; ``pytest koans/katas/01_ieee754`` and
  ``pytest koans/katas`` do;
- imports the kata's own module for its steps: ``import ieee754`` in ``test_steps.py`` finds the
  ``ieee754.py`` beside it (read afresh from source), even when another folder has one too;
- reveals the steps one at a time: once a step of a kata is red, its later steps are skipped as
  not yet revealed (``KOANS_KATA_ALL_STEPS=1`` runs every step: the checker's way). Run a kata
  without ``-n``: under xdist each worker sees only its own steps and reveals on its own;
- gives each step's verdict in ``report.user_properties`` (``kata``; and ``koan`` where no koans
  plugin listens, as in a kata workspace, whose runner reads that) and ends with a line per kata.

``koans/katas/conftest.py``, ``answers/katas/conftest.py`` and each kata workspace's conftest
hand off to it with ``install(config, folder)``: the folder is the katas folder the conftest
stands in. One plugin object serves them all.
"""


from __future__ import annotations

import ast
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

STEPS = "test_steps.py"
ALL_STEPS = "KOANS_KATA_ALL_STEPS"  # "1": run every step, revealed or not
SESSION = "koans-katas"  # the one plugin object per session (every katas conftest installs it)
KOANS_SUMMARY = "koans-summary"  # the koans' own path summary (koanrunner.plugin.summary)


# --------------------------------------------------------------------------------------------
# Which files are kata steps, and which katas a run names


def kata_folder(path: Path) -> Path | None:
    """The kata folder of a steps file (or of the folder itself), else None."""
    path = Path(path)
    folder = path.parent if path.suffix == ".py" else path
    if path.suffix == ".py" and path.name != STEPS:
        return None
    return folder if (folder / STEPS).is_file() else None


def is_step(item: pytest.Item) -> bool:
    return kata_folder(Path(str(item.path))) is not None


def named_explicitly(config: pytest.Config, here: Path) -> bool:
    """Whether the run's arguments point into the katas folder ``here`` (or are it)."""
    base = config.invocation_params.dir
    for arg in config.args:
        target = Path(base, str(arg).split("::")[0])
        try:
            target = target.resolve()
        except OSError:
            continue
        if target == here or here in target.parents:
            return True
    return False


# --------------------------------------------------------------------------------------------
# Importing the kata's own module


class _SourceLoader(importlib.machinery.SourceFileLoader):
    """Compile from source every time: a save within the same second as the last one, with the
    same size, must not bring back a stale ``.pyc``."""

    def get_code(self, fullname: str) -> Any:
        return compile(self.get_data(self.path), self.path, "exec", dont_inherit=True)


class KataModules(importlib.abc.MetaPathFinder):
    """Finds a kata's module (``ieee754``) in the folder of the steps being collected."""

    koans_kata_finder = True

    def __init__(self) -> None:
        self.files: dict[str, str] = {}

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        file = self.files.get(name)
        if file is None:
            return None
        return importlib.util.spec_from_file_location(name, file, loader=_SourceLoader(name, file))


def finder() -> KataModules:
    for entry in sys.meta_path:
        if getattr(entry, "koans_kata_finder", False):
            return entry  # type: ignore[return-value]
    made = KataModules()
    sys.meta_path.insert(0, made)
    return made


def kata_modules(folder: Path) -> dict[str, Path]:
    """The modules a kata folder holds beside its steps: name -> file."""
    return {p.stem: p for p in sorted(folder.glob("*.py"))
            if not p.name.startswith("test_") and p.name != "conftest.py"}


def collectstart(collector: pytest.Collector) -> None:
    if not isinstance(collector, pytest.Module):
        return
    folder = kata_folder(Path(str(collector.path)))
    if folder is None:
        return
    found = finder()
    for name, file in kata_modules(folder).items():
        found.files[name] = str(file)
        sys.modules.pop(name, None)  # this folder's module, not another kata's of the same name


# --------------------------------------------------------------------------------------------
# Steps: their order, revealing them, their verdicts


def step_names(path: Path) -> list[str]:
    """The steps of a steps file, in order (test functions at the top level)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return []
    return [node.name for node in tree.body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test")]


def session(config: pytest.Config) -> KataSession:
    plugin = config.pluginmanager.get_plugin(SESSION)
    if plugin is None:
        plugin = KataSession(config)
        config.pluginmanager.register(plugin, SESSION)
    return plugin  # type: ignore[no-any-return,unused-ignore]


def install(config: pytest.Config, folder: Path) -> None:
    """Serve the katas folder ``folder`` (a conftest's own): called from its pytest_configure."""
    session(config).folders.add(Path(folder).resolve())


def runtest_setup(item: pytest.Item) -> None:
    if not is_step(item) or os.environ.get(ALL_STEPS) == "1":
        return
    folder = kata_folder(Path(str(item.path)))
    blocker = session(item.config).red.get(str(folder))
    if blocker is not None:
        names = step_names(Path(str(item.path)))
        number = names.index(blocker) + 1 if blocker in names else "?"
        pytest.skip(f"not yet revealed: step {number} ({blocker}) must pass first")


def runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    outcome = yield
    # Hypothesis would write a patch adding @example(...) to the steps (read-only in a
    # workspace) and say "git apply" it, where libcst is installed: the failing input is enough.
    item.__dict__.pop("_hypothesis_failing_examples", None)
    if not is_step(item):
        return
    report = outcome.get_result()
    if any(key == "koan" for key, _ in report.user_properties):
        # The koans' plugin read this step as a koan (blanks, pristine copies): a step is not.
        report = pytest.TestReport.from_item_and_call(item, call)
        outcome.force_result(report)
    if report.when != "call" and not (report.failed or report.skipped):
        return
    plugin = session(item.config)
    verdict = plugin.verdict(item, call, report)
    report.user_properties.append(("kata", verdict))
    if not plugin.koans_listening():
        report.user_properties.append(("koan", verdict))
    if report.failed:
        plugin.red.setdefault(str(kata_folder(Path(str(item.path)))), _name(item))


def _name(item: pytest.Item) -> str:
    return getattr(item, "originalname", None) or item.name.split("[")[0]


def make_collect_report(collector: pytest.Collector) -> Generator[None, Any, None]:
    outcome = yield
    if not isinstance(collector, pytest.Module) or kata_folder(Path(str(collector.path))) is None:
        return
    report = outcome.get_result()
    if report.failed:
        verdict = broken_steps(Path(str(collector.path)), collector.config)
        report.koan_verdict = verdict
        report.longrepr = verdict["message"]


def broken_steps(path: Path, config: pytest.Config) -> dict[str, Any]:
    """Why a steps file cannot be imported: most often the kata's module does not load."""
    folder = path.parent
    for name, file in kata_modules(folder).items():
        shown = shown_path(file, config)
        try:
            source = file.read_bytes()
            code = compile(source, str(file), "exec", dont_inherit=True)
        except OSError as err:
            return _broken(shown, 0, f"{shown}: cannot read it: {err.strerror}")
        except (SyntaxError, ValueError) as err:
            line = getattr(err, "lineno", 0) or 0
            text = (getattr(err, "text", "") or "").rstrip("\n")
            pointer = " " * max((getattr(err, "offset", 1) or 1) - 1, 0) + "^"
            message = f"{shown}:{line}: Python cannot read {name}.py: {getattr(err, 'msg', err)}"
            return _broken(shown, line, f"{message}\n    {text}\n    {pointer}" if text else message)
        namespace: dict[str, Any] = {"__name__": f"kata_import_check_{name}", "__file__": str(file)}
        try:
            exec(code, namespace)
        except BaseException as err:  # what the pair's module raises while it loads
            line = _deepest(err.__traceback__, file)
            text = _line(file, line)
            return _broken(shown, line, f"{shown}:{line}: {name}.py stops while it loads: "
                           f"{type(err).__name__}: {err}" + (f"\n    {text}" if text else ""))
    shown = shown_path(path, config)
    return _broken(shown, 0, f"{shown}: pytest could not import the steps")


def _broken(file: str, line: int, message: str) -> dict[str, Any]:
    return {"kind": "broken", "file": file, "line": line, "message": message}


def shown_path(path: Path, config: pytest.Config) -> str:
    """A path as the run's user can open it: relative to where pytest was started, if inside."""
    try:
        return Path(path).resolve().relative_to(config.invocation_params.dir.resolve()).as_posix()
    except ValueError:
        try:
            return Path(path).resolve().relative_to(config.rootpath).as_posix()
        except ValueError:
            return str(path)


def _deepest(tb: Any, path: Path) -> int:
    line = 0
    target = os.path.normcase(str(path))
    while tb is not None:
        if os.path.normcase(tb.tb_frame.f_code.co_filename) == target:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def _line(path: Path, line: int) -> str:
    try:
        rows = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return ""
    return rows[line - 1].strip() if 0 < line <= len(rows) else ""


class KataSession:
    """What one pytest session knows about its katas: which step is red in each, the verdicts."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.folders: set[Path] = set()  # the katas folders whose conftests installed us
        self.red: dict[str, str] = {}  # kata folder -> its first red step
        self.seen: dict[str, dict[str, dict[str, Any]]] = {}  # folder -> step -> verdict

    # -- the hooks (one object, however many conftests hand off to it) ------------------------

    def pytest_ignore_collect(self, collection_path: Path, config: pytest.Config) -> bool | None:
        """A kata folder is collected only when the run names it (or the katas folder itself)."""
        path = Path(collection_path)
        here = path.parent.resolve()
        if here in self.folders and kata_folder(path) is not None:
            return None if named_explicitly(config, here) else True
        return None

    def pytest_collectstart(self, collector: pytest.Collector) -> None:
        collectstart(collector)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        runtest_setup(item)

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
        yield from runtest_makereport(item, call)

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_make_collect_report(self, collector: pytest.Collector) -> Generator[None, Any, None]:
        yield from make_collect_report(collector)

    def koans_listening(self) -> bool:
        return self.config.pluginmanager.get_plugin(KOANS_SUMMARY) is not None

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        """A run of katas alone is not a walk of the koans' path: the path summary (every koan
        solved or not, the next one) would count the steps as koans."""
        summary = self.config.pluginmanager.get_plugin(KOANS_SUMMARY)
        if summary is None or not self.config.args:
            return
        base = self.config.invocation_params.dir
        if all(_in_katas(Path(base, str(arg).split("::")[0])) for arg in self.config.args):
            self.config.pluginmanager.unregister(summary)

    def verdict(self, item: pytest.Item, call: pytest.CallInfo[None], report: Any) -> dict[str, Any]:
        path = Path(str(item.path))
        names = step_names(path)
        name = _name(item)
        number = names.index(name) + 1 if name in names else 0
        shown = shown_path(path, item.config)
        base: dict[str, Any] = {"step": name, "number": number, "total": len(names),
                                "file": shown, "line": 0}
        if report.passed:
            verdict = dict(base, kind="passed", message="")
        elif report.skipped:
            reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
            hidden = str(reason).startswith(("Skipped: not yet revealed", "not yet revealed"))
            verdict = dict(base, kind="hidden" if hidden else "skipped", message=str(reason))
        else:
            verdict = dict(base, **describe(item, call.excinfo))
            printed = "".join(text for _, text in report.sections
                              if "Captured stdout" in _ or "Captured stderr" in _)
            if printed.strip():  # what the pair's code printed, shown under the red step
                verdict["output"] = printed[-4000:]
        self.seen.setdefault(str(path.parent), {})[name] = verdict
        return verdict

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if getattr(self.config.option, "numprocesses", None) and self.folders and \
                any(named_explicitly(self.config, f) for f in self.folders):
            terminalreporter.write_line("note: under -n each worker reveals the steps on its own, "
                                        "so several can show at once: run a kata without -n")
        if not self.seen:
            return
        tr = terminalreporter
        tr.write_sep("=", "katas")
        for folder, steps in sorted(self.seen.items()):
            names = step_names(Path(folder) / STEPS)
            green = sum(steps.get(n, {}).get("kind") == "passed" for n in names)
            red = next((n for n in names if steps.get(n, {}).get("kind") not in ("passed", "skipped", None)
                        and steps[n]["kind"] != "hidden"), None)
            kata = Path(folder).name
            line = f"{kata}: {green} of {len(names)} steps green"
            if red is None:
                tr.write_line(line + "." + (" The kata is done." if green == len(names) else ""))
                continue
            number = names.index(red) + 1
            tr.write_line(f"{line}; step {number}, {red}, is red.")
            message = str(steps[red].get("message") or "").splitlines()
            if message:
                tr.write_line("  " + message[0])
            modules = ", ".join(shown_path(p, self.config) for p in kata_modules(Path(folder)).values())
            tr.write_line(f"  Make it pass: edit {modules}, then run this again.")
            if number < len(names):
                tr.write_line(f"  The other {len(names) - number} step(s) are revealed one at a time, "
                              "as each goes green.")
            tr.write_line(f"  As a pair, with a clock: python tools/koans.py kata {kata}")


def _in_katas(path: Path) -> bool:
    try:
        path = path.resolve()
    except OSError:
        return False
    return any(p.name == "katas" and (p / "conftest.py").is_file() for p in (path, *path.parents))


def describe(item: pytest.Item, excinfo: Any) -> dict[str, Any]:
    """A red step in a few lines: where, what went wrong, and the line of the pair's code."""
    steps = Path(str(item.path))
    shown = shown_path(steps, item.config)
    if excinfo is None:
        return {"kind": "error", "line": 0, "message": f"{shown}: the step failed"}
    exc = excinfo.value
    modules = list(kata_modules(steps.parent).values())
    step_line = _deepest(excinfo.tb, steps)
    code = _line(steps, step_line)
    theirs = [(m, _deepest(excinfo.tb, m)) for m in modules]
    theirs = [(m, n) for m, n in theirs if n]
    place = f"{shown}:{step_line}"
    rows: list[str] = []
    if isinstance(exc, NotImplementedError) and theirs:
        module, line = theirs[0]
        where = shown_path(module, item.config)
        function = _function_at(module, line)
        head = (f"{where}:{line}: {function or 'this'} is still a stub: write it "
                "(it raises NotImplementedError)")
        kind = "stub"
        rows.append(f"  called from the step at {place}: {code}")
    elif isinstance(exc, AssertionError):
        kind = "wrong"
        detail = str(exc).strip()
        head = f"{place}: not yet: {code}"
        if detail:
            rows += ["  " + row for row in detail.splitlines()[:12]]
    else:
        kind = "error"
        head = f"{place}: Python raised {type(exc).__name__}: {exc}".rstrip()
        rows.append(f"    {code}")
        if theirs:
            module, line = theirs[-1]
            rows.append(f"  in your code at {shown_path(module, item.config)}:{line}: {_line(module, line)}")
    for note in getattr(exc, "__notes__", ()) if kind != "stub" else ():
        if "falsifying" in str(note).lower():
            rows.append("  Hypothesis found an input that breaks it:")
            rows += ["    " + row for row in str(note).splitlines()]
    return {"kind": kind, "line": step_line, "message": "\n".join([head, *rows])}


def _function_at(path: Path, line: int) -> str:
    """The name of the innermost function around ``line`` (``Heap.collect``)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return ""
    best = ""

    def visit(node: ast.AST, prefix: str) -> None:
        nonlocal best
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                if child.lineno <= line <= (child.end_lineno or child.lineno):
                    if not isinstance(child, ast.ClassDef):
                        best = name
                    visit(child, name + ".")

    visit(tree, "")
    return best
