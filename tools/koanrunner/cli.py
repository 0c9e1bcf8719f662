"""The commands of ``python tools/koans.py``."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path as FsPath
from typing import Any

from .early import RUNS_KOANS, default_root
from .running import DEFAULT_TIMEOUT, Runner
from .view import RUNNER, Style

HELP_ROOT = "the course checkout (default: the folder above tools/)"
HELP_VALUES = ("show a wrong value at the first wrong try of a koan (default: from the second, so "
               "that a first try is a prediction; \"show_values\": true in .koans/settings.json "
               "keeps it on)")
HELP_TIMEOUT = "seconds a koan may run before it is stopped (default: KOANS_TIMEOUT, or 10)"


COMMANDS_HELP = {
    "run": ("show the next koan (the default)",
            "Walk the path: run what changed, stop at the first unsolved koan, and show its "
            "lesson, its line and what went wrong."),
    "watch": ("re-run on every save", "Re-check on every save (keys: r re-run the whole file, "
              "h hint, l list, q quit)."),
    "hint": ("the next hint for the current koan", "Show the next hint for the koan on screen; "
             "hints go from a nudge to nearly the answer."),
    "list": ("topics, solved/total, where you are", "Every topic: solved and total, koans put "
             "aside or needing a GPU, and how many you predicted right at the first try."),
    "status": ("same as list", "Same as list."),
    "goto": ("start the path at a topic, file or koan ('start' undoes)",
             "Start the path at a topic (07, 07_scope_and_closures), a file or a koan "
             "(FILE::test_name); a koan put aside there comes back. 'goto start' undoes it."),
    "skip": ("put the current koan aside and come back to it later",
             "Put a koan aside (the current one, or FILE::test_name): it comes back once the "
             "rest of the path is solved, or with goto."),
    "reset": ("restore pristine koans (your version is backed up)",
              "Put a koan file or a topic back as shipped; what you wrote is backed up first "
              "(restore brings it back)."),
    "restore": ("put a backup back (default: the latest)",
                "Put a backup taken by reset back (the latest, or STAMP from 'backups'), and "
                "check the restored koans at once."),
    "backups": ("list backups", "List the backups reset has taken."),
    "explain": ("a solved koan's lesson again, with its picture",
                "Show a koan's lesson and, once it is solved, its picture (the bits of a float, a "
                "struct's bytes, a view over its buffer...), drawn from the answer key."),
    "kata": ("a pair kata in a scratch copy: build a small program test-first (koans/katas/), "
             "or replay a topic's koans against the clock",
             "A kata for a pair at one keyboard: build a small model of the machine test-first "
             "(koans/katas/), one step revealed at a time, or replay a topic's koans against "
             "the clock; driver swaps are prompted. A kata carries on where its last session "
             "stopped (--fresh starts over)."),
}


def _common() -> argparse.ArgumentParser:
    """The options every command takes, before or after its name."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--root", type=FsPath, default=argparse.SUPPRESS, help=HELP_ROOT)
    common.add_argument("--timeout", type=seconds, default=argparse.SUPPRESS, help=HELP_TIMEOUT)
    common.add_argument("--color", choices=("auto", "always", "never"), default=argparse.SUPPRESS,
                        help="colour the output: auto (a terminal without NO_COLOR), always, never")
    common.add_argument("--show-values", action="store_true", default=argparse.SUPPRESS,
                        help=HELP_VALUES)
    return common


def version() -> str:
    try:
        from importlib.metadata import version as installed

        return installed("python-internals-koans")
    except Exception:  # the course run from a plain checkout
        return "(a checkout, not installed)"


def parser() -> argparse.ArgumentParser:
    common = _common()
    p = argparse.ArgumentParser(prog=RUNNER, parents=[common],
                                description="Walk the koans: the first unsolved one, its lesson, "
                                "its line, and what to do next.",
                                epilog="Switches in the environment: KOANS_TIMEOUT (seconds a "
                                "koan may run), KOANS_NO_FORK=1 (a plain pytest per run, no "
                                "warm server), KOANS_WATCH=poll (poll files instead of inotify "
                                "or kqueue), KOANS_ASCII=1 (no box-drawing characters), KOANS_ROOT (the course), "
                                "NO_COLOR. See README.md, "
                                "'Platforms and switches'.")
    p.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    made = {name: sub.add_parser(name, parents=[common], help=short, description=long)
            for name, (short, long) in COMMANDS_HELP.items()}
    made["goto"].add_argument("target", help="a topic, a koan file, FILE::test_name, or 'start'")
    made["skip"].add_argument("koan", nargs="?", help="FILE::test_name (default: the current koan)")
    made["reset"].add_argument("target", help="a koan file or a topic")
    made["restore"].add_argument("stamp", nargs="?", help="a backup's stamp (default: the latest)")
    made["explain"].add_argument("koan", nargs="?",
                                 help="FILE::test_name (default: the koan solved last, or the current one)")
    kata = made["kata"]
    kata.add_argument("topic", nargs="?", metavar="NAME", default=None,
                      help="a kata (01_ieee754, ieee754, katas/01) or a topic (03, "
                      "03_text_and_bytes); none: list the katas")
    kata.add_argument("--swap-minutes", type=minutes, default=5.0, metavar="N",
                      help="prompt a driver swap every N minutes (0: never; default 5)")
    kata.add_argument("--swap-steps", "--swap-koans", dest="swap_koans", type=count, default=None,
                      metavar="K", help="prompt a driver swap every K green steps or solved "
                      "koans (0: never; default: 1 for a kata's steps, 0 for a topic's koans)")
    kata.add_argument("--pair", default="", metavar="NAMES",
                      help="your names, comma-separated: 'ana,bo' (default: A and B); every "
                      "name takes its turn to drive")
    kata.add_argument("--fresh", action="store_true",
                      help="start the kata over (the last attempt is kept in .previous/); by "
                      "default a kata carries on where its last session stopped")
    kata.add_argument("--hard", action="store_true",
                      help="with a fresh start: the stub with signatures only, no guidance")
    kata.add_argument("--summary", nargs="+", metavar="DIR",
                      help="a facilitator's table of the sessions saved under each DIR "
                      "(summary.json files: time per step, swaps, hints)")
    return p


def options(args: argparse.Namespace) -> argparse.Namespace:
    """The common options' defaults, wherever on the line they were (not) given."""
    defaults = {"root": None, "timeout": seconds(os.environ.get("KOANS_TIMEOUT", str(DEFAULT_TIMEOUT))),
                "color": "auto", "show_values": False}
    for name, value in defaults.items():
        if not hasattr(args, name):
            setattr(args, name, value)
    return args


MIN_TIMEOUT = 0.5  # below this, a koan that only starts slowly would be called endless


def seconds(text: str) -> float:
    """A --timeout value: finite seconds, at least MIN_TIMEOUT (an endless koan must always be
    stopped, and a koan that is merely slow to start must not be called endless)."""
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value < MIN_TIMEOUT:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give a finite number of seconds, {MIN_TIMEOUT:g} or more, e.g. 10 (an "
            "endless koan must always be stopped, and a slow one must have time to start)")
    return value


def minutes(text: str) -> float:
    """A --swap-minutes value: finite minutes, 0 (never) or more."""
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of minutes") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: give a finite number of minutes, 0 (never "
                                         "prompt a swap) or more, e.g. 5")
    return value


def count(text: str) -> int:
    """A --swap-steps value: a whole number, 0 (never) or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: give 0 (never) or more")
    return value


def _readable_output() -> None:
    """Whatever the terminal's encoding (PYTHONIOENCODING=ascii, a cp1252 console), a character
    it cannot show is written escaped, never a UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError, OSError):
            stream.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]


def missing_pytest() -> str | None:
    """Why this Python cannot run koans (pytest is not installed for it), or None."""
    import importlib.util

    if importlib.util.find_spec("pytest") is not None:
        return None
    return (f"pytest is not installed for this Python ({sys.executable}), so no koan can run. "
            "Activate the course's virtual environment (. .venv/bin/activate) or install what "
            "the course needs: python -m pip install -e .")


def main(argv: list[str] | None = None) -> int:
    _readable_output()
    args = options(parser().parse_args(argv))
    root = args.root.resolve() if args.root else FsPath(default_root())
    color = {"always": True, "never": False}.get(args.color)
    style = Style(sys.stdout, color)
    if not (root / "koans").is_dir():
        print(f"No koans/ folder in {root}. Run this from the course checkout "
              "(or pass --root).", file=sys.stderr)
        return 2
    command = args.command or "run"
    why = missing_pytest() if command in RUNS_KOANS or command == "kata" else None
    if why:
        print(why, file=sys.stderr)
        return 2
    try:
        if command == "kata":
            from . import kata
            from .course import Course

            if args.summary:
                return kata.workshop_table(args.summary, style)
            pair = [name.strip() for name in args.pair.split(",") if name.strip()]
            return kata.run(Course(root), args.topic, swap_minutes=args.swap_minutes,
                            swap_koans=args.swap_koans, pair=pair, timeout=args.timeout, style=style,
                            fresh=args.fresh, hard=args.hard)
        runner = None
        if command in RUNS_KOANS:  # the server warms up while the rest of the runner loads
            runner = Runner(root, args.timeout)  # (adopting the one koans.py forked, if any)
            runner.start()
        from .app import App

        app = App(root, args.timeout, style, runner=runner, show_values=args.show_values)
        try:
            return COMMANDS[command](app, args)
        finally:
            app.close()
    except KeyboardInterrupt:
        print("\nStopped. Your progress is saved; run it again to carry on: " + RUNNER)
        return 130
    except BrokenPipeError:  # `koans.py | head`
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


def cmd_run(app: Any, args: Any) -> int:
    shown = app.step()
    return 0 if shown.walk.stop is None else 1


def cmd_watch(app: Any, args: Any) -> int:
    from .watch import loop

    return loop(app)


def cmd_hint(app: Any, args: Any) -> int:
    return 0 if app.hint() else 1


def _here(app: Any) -> str | None:
    current = app.store.read().get("current") or {}
    rel = current.get("file") or ""
    return rel.split("/")[1] if rel.count("/") >= 2 else None


def cmd_list(app: Any, args: Any) -> int:
    rows = app.path.totals()
    app.view.table(rows, _here(app))
    data = app.store.read()
    current = data.get("current")
    if current:
        app.view.write(f"\nCurrent koan: {current['key']}")
    if data.get("start"):
        app.view.write(f"The path starts at {data['start']} (back to the beginning: "
                       f"{RUNNER} goto start)")
    if data["skipped"]:
        app.view.write(f"Put aside for later: {', '.join(data['skipped'])}")
    app.view.write(app.view.style(f"Carry on: {RUNNER}", "dim"))
    return 0


def cmd_goto(app: Any, args: Any) -> int:
    if args.target in ("start", "beginning", "-"):
        app.store.update(lambda d: d.__setitem__("start", None))
        app.view.write(f"The path starts at the beginning again. Next: {RUNNER}")
        return 0
    found = _koans_named(app, args.target)
    if isinstance(found, str):
        app.view.write(found)
        return 2
    files, koan = found
    start = files[0].rel if args.target.endswith(".py") or koan else \
        "/".join(files[0].rel.split("/")[:2])
    if koan:  # a koan: the path starts at it, inside its file
        start += "::" + koan
    back = start[len("koans/"):]

    def change(data: dict[str, Any]) -> list[str]:
        data["start"] = start
        # A koan put aside comes back when the learner goes to it (or to its file or topic).
        returned = [k for k in data["skipped"] if k == back or k.startswith(back.rstrip("/") + ("::" if koan or back.endswith(".py") else "/"))]
        data["skipped"] = [k for k in data["skipped"] if k not in returned]
        return returned

    returned = app.store.update(change)
    app.view.write(f"The path now starts at {start}. Next: {RUNNER}")
    if returned:
        app.view.write(f"Back on the path (no longer put aside): {', '.join(returned)}")
    return cmd_run(app, args)


def _koans_named(app: Any, target: str) -> tuple[list[Any], str] | str:
    """The koan files (and the koan) a goto or skip names, or why it names none."""
    files = app.course.resolve(target, app.pristine.known())
    known = set(app.pristine.known())
    files = [f for f in files if f.exists() or f.rel in known]
    if not files:
        return f"No topic, koan file or koan matches {target[:200]!r}; see {RUNNER} list"
    koan = target.split("::", 1)[1].strip() if "::" in target else ""
    if koan:
        names = files[0].expected_names() or files[0].test_names()
        if koan.split("[")[0] not in names:
            return (f"{files[0].rel} has no koan named {koan[:200]!r}; its koans: "
                    f"{', '.join(names) or 'none'}")
    return files, koan


def cmd_skip(app: Any, args: Any) -> int:
    key = args.koan
    if not key:
        stop = app.current()
        if stop is None:
            app.view.done()
            return 0
        key = stop.key
    else:
        target = key if key.startswith("koans/") else f"koans/{key}"
        found = _koans_named(app, target)
        if isinstance(found, str) or not found[1]:
            app.view.write(found if isinstance(found, str) else
                           f"skip puts one koan aside: name it as FILE::koan, e.g. "
                           f"{found[0][0].rel}::{(found[0][0].expected_names() or ['test_x'])[0]}")
            return 2
        key = f"{found[0][0].rel}::{found[1]}"
    key = key[len("koans/"):] if key.startswith("koans/") else key

    def change(data: dict[str, Any]) -> None:
        if key not in data["skipped"]:
            data["skipped"].append(key)

    app.store.update(change)
    app.view.write(f"Put aside: {key}. It comes back once the rest of the path is solved, or "
                   f"at once with: {RUNNER} goto koans/{key}. Next: {RUNNER}")
    return cmd_run(app, args)


def _shown(app: Any, path: Any) -> str:
    """A path inside the course relative to it (``.koans/backups/...``), any other whole."""
    try:
        return path.relative_to(app.course.root).as_posix()
    except ValueError:
        return str(path)


def cmd_reset(app: Any, args: Any) -> int:
    files = app.course.resolve(args.target, app.pristine.known())
    if not files:
        app.view.write(f"No topic or koan file matches {args.target!r}; see {RUNNER} list")
        return 2
    def announce(stamp: str) -> None:  # before any file is written: Ctrl-C loses nothing
        app.view.write(f"Your version is backed up in {_shown(app, app.pristine.backups / stamp)}/. "
                       f"Undo with: {RUNNER} restore {stamp}")

    done, refused, _ = app.pristine.reset([f.rel for f in files], on_backup=announce)
    for why in refused:
        app.view.write(app.view.style(f"not reset: {why}", "yellow"))
    for rel in done:
        app.view.write(f"reset {rel} to pristine")
    return 0 if done and not refused else 1


def cmd_restore(app: Any, args: Any) -> int:
    backups = app.pristine.list_backups()
    if not backups:
        app.view.write("There are no backups yet.")
        return 1
    stamp = args.stamp or backups[-1][0]
    if stamp not in dict(backups):
        app.view.write(f"No backup named {stamp}; see {RUNNER} backups")
        return 2
    files, saved, failed = app.pristine.restore(stamp)
    for why in failed:
        app.view.write(app.view.style(f"not restored: {why}", "yellow"))
    for rel in files:
        app.view.write(f"restored {rel} from {stamp}")
    if saved:
        app.view.write(f"What it replaced is backed up too: {RUNNER} restore {saved}")
    if files:  # check the restored work now, so that list and the path agree with it at once
        app.view.write()
        app.step()
    return 1 if failed else 0


def cmd_explain_(app: Any, args: Any) -> int:
    from .explain import cmd_explain

    return cmd_explain(app, args, _koans_named)


def cmd_backups(app: Any, args: Any) -> int:
    for stamp, manifest in app.pristine.list_backups():
        app.view.write(f"{stamp}  {manifest.get('reason', '')}")
    app.view.write(app.view.style(f"Put one back: {RUNNER} restore STAMP", "dim"))
    return 0


COMMANDS = {"run": cmd_run, "watch": cmd_watch, "hint": cmd_hint, "list": cmd_list,
            "status": cmd_list, "goto": cmd_goto, "skip": cmd_skip, "reset": cmd_reset,
            "restore": cmd_restore, "backups": cmd_backups, "explain": cmd_explain_}
