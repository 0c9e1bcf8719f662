"""``kata NAME``: a pair at the keyboard, a clock, and swaps of driver and navigator.

NAME is one of two things:

- a kata under ``koans/katas/`` (``01_ieee754``, ``ieee754``, ``katas/01``): the pair builds a
  small program test-first, one step revealed at a time (``build``, its steps in ``steps``);
- a topic (``03``, ``03_text_and_bytes``): the pair replays the topic's koans against the clock,
  in a scratch copy (``replay``).

Both work in a workspace under ``.koans/kata/`` (``session``): the learner's own koans and
progress are never touched. Both end ('q', Ctrl-C, or everything solved) with an honest
summary, saved as ``summary.json`` in the workspace. ``plugin`` is the katas' pytest plugin,
which the katas' conftests hand off to.

The arrows run one way: ``build`` and ``replay`` use ``session`` (and ``build`` uses ``steps``);
nothing here imports ``build`` or ``replay`` but this dispatcher.
"""

from __future__ import annotations

from ..course import Course
from ..view import RUNNER, Style


def workshop_table(places: list[str], style: Style) -> int:
    """``kata --summary DIR...``: the pairs' saved sessions in one table."""
    from .workshop import gather, table

    found, problems = gather(places)
    for problem in problems:
        style.stream.write(f"note: {problem}\n")
    if not found:
        style.stream.write("No kata summaries found: each pair's session saves one as "
                           "summary.json in its kata workspace (.koans/kata/NAME/).\n")
        return 1
    for row in table(found):
        style.stream.write(row + "\n")
    return 0


def run(course: Course, name: str | None, *, swap_minutes: float, swap_koans: int | None,
        pair: list[str], timeout: float, style: Style, fresh: bool = False,
        hard: bool = False) -> int:
    """``kata NAME``: a kata folder builds that kata; a topic replays it; nothing lists both."""
    from . import build, steps

    if not name:
        return steps.list_katas(course, style)
    folder = steps.find(course, name)
    if folder is not None:
        return build.run(course, folder, swap_minutes=swap_minutes,
                         swap_steps=1 if swap_koans is None else swap_koans, pair=pair,
                         timeout=timeout, style=style, fresh=fresh, hard=hard)
    if name.strip("/").split("/")[0] == "katas":
        style.stream.write(f"No kata matches {name!r}. The katas: {RUNNER} kata\n")
        return 2
    from .replay import replay

    return replay(course, name, swap_minutes=swap_minutes,
                  swap_koans=0 if swap_koans is None else swap_koans, pair=pair, timeout=timeout,
                  style=style, fresh=fresh)
