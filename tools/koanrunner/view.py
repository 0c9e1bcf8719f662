"""Everything the terminal shows. Colour only on a TTY, never with NO_COLOR or TERM=dumb."""

from __future__ import annotations

import os
import sys
from typing import IO, Any, ClassVar

RUNNER = "python tools/koans.py"


def _ansi_works(stream: IO[str]) -> bool:
    """Whether escape codes colour the terminal rather than print as text: everywhere but a
    Windows console that has not (or cannot) switch on its VT mode."""
    if sys.platform != "win32":
        return True
    try:
        import ctypes
        import msvcrt

        kernel = ctypes.windll.kernel32  # type: ignore[attr-defined,unused-ignore]
        handle = msvcrt.get_osfhandle(stream.fileno())  # type: ignore[attr-defined,unused-ignore]
        mode = ctypes.c_uint32()
        if not kernel.GetConsoleMode(handle, ctypes.byref(mode)):
            return False
        return bool(kernel.SetConsoleMode(handle, mode.value | 0x0004))  # VT processing
    except Exception:
        return False


class Style:
    CODES: ClassVar[dict[str, str]] = {"bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "blue": "34",
             "cyan": "36", "mark": "30;43"}

    def __init__(self, stream: IO[str] | None = None, color: bool | None = None) -> None:
        self.stream = stream or sys.stdout
        if color is None:
            color = (
                hasattr(self.stream, "isatty") and self.stream.isatty()
                and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"
            )
        self.color = bool(color) and _ansi_works(self.stream)
        encoding = (getattr(self.stream, "encoding", None) or "ascii").lower().replace("-", "")
        self.unicode = (encoding in ("utf8", "utf16", "utf32")
                        and os.environ.get("KOANS_ASCII", "") in ("", "0"))

    def __call__(self, text: str, *styles: str) -> str:
        if not self.color or not styles:
            return text
        codes = ";".join(self.CODES[s] for s in styles)
        return f"\033[{codes}m{text}\033[0m"

    def bar(self, done: int, total: int, width: int = 20) -> str:
        filled = round(width * done / total) if total else width
        full, empty = ("█", "░") if self.unicode else ("#", ".")
        return self(full * filled, "green") + self(empty * (width - filled), "dim")

    def rule(self, title: str = "", width: int = 72) -> str:
        char = "─" if self.unicode else "-"
        text = f"{char * 2} {title} " if title else ""
        return self(text + char * max(width - len(text), 0), "dim")


class View:
    ask_again = f"{RUNNER} hint"  # how to ask for the next hint, in this view

    def __init__(self, style: Style) -> None:
        self.style = style
        self.out = style.stream

    def width(self) -> int:
        import shutil

        return max(40, min(100, shutil.get_terminal_size((80, 24)).columns))

    def write(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def clear(self) -> None:
        if self.style.color:
            self.out.write("\033[2J\033[H")

    # -- progress -----------------------------------------------------------------------------

    def progress(self, totals: list[tuple[str, str, int, int]], here: str | None) -> None:
        """Overall and per-topic bars. ``totals``: (topic, title, solved, total)."""
        s = self.style
        solved = sum(t[2] for t in totals)
        total = sum(t[3] for t in totals)
        self.write(f"{s('Python Internals Koans', 'bold')}  {s.bar(solved, total, 30)} "
                   f"{solved}/{total} solved")
        width = max((len(t[1]) for t in totals), default=10)
        for topic, title, done, count in totals:
            mark = s(">", "yellow", "bold") if topic == here else " "
            tail = s("  <- you are here", "yellow") if topic == here else ""
            self.write(f" {mark} {title.ljust(width)}  {s.bar(done, count, 12)} {done}/{count}{tail}")

    def table(self, rows: list[dict[str, Any]], here: str | None) -> None:
        s = self.style
        width = max((len(r["title"]) for r in rows), default=10)
        self.write(s(f"   {'topic'.ljust(width)}  solved  progress", "bold"))
        for row in rows:
            mark = s(">", "yellow", "bold") if row["topic"] == here else " "
            count = f"{row['solved']}/{row['total']}".rjust(6)
            notes = []
            if row.get("skipped"):
                notes.append(f"{row['skipped']} put aside")
            if row.get("need_gpu"):
                notes.append(f"{row['need_gpu']} need a CUDA GPU")
            if row.get("unavailable", 0) - row.get("need_gpu", 0) > 0:
                notes.append(f"{row['unavailable'] - row.get('need_gpu', 0)} skipped here")
            if row.get("predictable", row.get("solved")):
                notes.append(f"{row.get('predicted', 0)} of {row.get('predictable', row['solved'])} "
                             "right at the first try")
            if row["topic"] == here:
                notes.append("you are here")
            note = s("  (" + ", ".join(notes) + ")", "dim") if notes else ""
            self.write(f" {mark} {row['title'].ljust(width)}  {count}  {s.bar(row['solved'], row['total'], 16)}{note}")

    # -- one koan -----------------------------------------------------------------------------

    def source(self, text: str | None, line: int, spans: list[tuple[int, int]]) -> None:
        """The learner's line with two lines of context, the blanks highlighted."""
        s = self.style
        rows = (text or "").splitlines()
        if not 0 < line <= len(rows):
            return
        first = max(1, line - 2)
        for number in range(first, line + 1):
            raw = rows[number - 1]
            if number == line:
                shown = raw
                if s.color and spans:
                    pieces, last = [], 0
                    for a, b in spans:
                        pieces += [raw[last:a], s(raw[a:b], "mark", "bold")]
                        last = b
                    shown = "".join(pieces) + raw[last:]
                self.write(f"  {s('>', 'yellow')} {str(number).rjust(4)} | {shown}")
                if spans and not s.color:
                    marks = [" "] * (max(b for _, b in spans))
                    for a, b in spans:
                        marks[a:b] = ["^"] * (b - a)
                    self.write(f"         | {''.join(marks)}")
            else:
                self.write(s(f"    {str(number).rjust(4)} | {raw}", "dim"))

    def koan(self, stop: Any, text: str | None, lesson: str, topic_lesson: str,
             spans: list[tuple[int, int]]) -> None:
        s = self.style
        koan = stop.koan
        self.write()
        self.write(s.rule(f"{stop.title} > {stop.file.name}"))
        if topic_lesson:
            heading, opening = lesson_opening(topic_lesson)
            if heading:
                self.write("  " + s(heading, "bold"))
            for row in wrap(opening, self.width() - 2):
                self.write("  " + row)
            readme = "/".join(stop.file.rel.split("/")[:2]) + "/README.md"
            self.write(s(f"  (the whole lesson: {readme})", "dim"))
            self.write(s.rule(width=min(72, self.width())))
        name = stop.name
        if name:
            self.write(s(name, "bold", "cyan"))
        if lesson:
            for row in wrap(lesson, self.width() - 2):
                self.write("  " + row)
        self.write()
        message = str(koan.get("message") or "")
        lines = message.splitlines()
        head = lines[0] if lines else ""
        place = f"{stop.file.rel}:{koan.get('line') or 0}"
        if not str(koan.get("nodeid") or stop.file.rel).startswith(stop.file.rel):
            place = str(koan.get("nodeid"))  # the trouble is in a file beside the koans
        if head.startswith(place + ": "):
            head = head[len(place) + 2:]
        elif head.startswith(stop.file.rel + ": "):
            head = head[len(stop.file.rel) + 2:]
        rest = lines[1:]
        kind = koan.get("kind")
        line = int(koan.get("line") or 0)
        color = {"blank": "yellow", "wrong": "red"}.get(str(kind), "red")
        self.write(f"  {s(place, 'bold')}  {s(LABELS.get(str(kind), str(kind)), color, 'bold')}")
        if line and kind != "broken":
            self.source(text, line, spans)
            code = (text or "").splitlines()[line - 1].strip() if text and line <= len((text or "").splitlines()) else ""
            if rest and rest[0].strip() == code:
                rest = rest[1:]
        self.write("  " + s(head, color))
        for row in rest:
            self.write("  " + row)

    def next_steps(self, stop: Any) -> None:
        s = self.style
        self.write()
        if stop.koan.get("kind") == "missing":
            self.write(f"Next: restore it with  {s(f'{RUNNER} reset {stop.file.rel}', 'bold')}")
        elif stop.koan.get("kind") == "foreign":
            self.write(f"Next: move {s(str(stop.koan.get('nodeid')), 'bold')} out of koans/, then "
                       f"run  {s(RUNNER, 'bold')}")
        elif not str(stop.koan.get("nodeid") or stop.file.rel).startswith(stop.file.rel):
            self.write(f"Next: bring back {s(str(stop.koan.get('nodeid')), 'bold')} as the message "
                       f"says, then run  {s(RUNNER, 'bold')}")
        else:
            line = stop.koan.get("next_line") or stop.koan.get("line") or ""
            where = f"{stop.file.rel}" + (f" line {line}" if line else "")
            self.write(f"Next: edit {s(where, 'bold')}, save, then run  {s(RUNNER, 'bold')}")
        self.write(s(f"      stuck? {RUNNER} hint    re-run on every save: {RUNNER} watch    "
                     f"all topics: {RUNNER} list", "dim"))

    def solved(self, name: str, answer_rel: str, lines: list[tuple[int, str]],
               picture: dict[str, Any] | None = None) -> None:
        s = self.style
        tick = "✓" if s.unicode else "ok"
        self.write(f"{s(tick, 'green', 'bold')} {s(name, 'green')} is solved.")
        if lines:
            self.write(s(f"  The answer, for comparison ({answer_rel}):", "dim"))
            for number, row in lines:
                self.write(f"    {str(number).rjust(4)} | {row}")
        self.picture(picture)

    def picture(self, picture: dict[str, Any] | None) -> None:
        """A koan's picture, in the style this terminal shows (left out if it could not be
        drawn: the checker proves each one draws for its answer)."""
        if not picture:
            return
        rows = picture.get("unicode" if self.style.unicode else "ascii")
        if not rows:
            return
        expression = str(picture.get("expression") or "")
        shown = f" ({expression})" if len(expression) <= 60 else ""  # a long one would wrap
        self.write(self.style(f"  The picture{shown}:", "dim"))
        for row in rows:
            self.write("  " + str(row))

    def hint(self, name: str, number: int, hints: list[str], unasked: bool = False) -> None:
        s = self.style
        if not hints:
            self.write(f"No hints are written for {name} yet. Reread its lesson, then try a value.")
            return
        head = "You have been here a few runs; a hint" if unasked else "Hint"
        self.write(f"{s(head, 'yellow', 'bold')} {number} of {len(hints)} for {s(name, 'bold')}:")
        for row in hints[number - 1].strip().splitlines():
            self.write("  " + row)
        if number < len(hints):
            self.write(s(f"  Another, closer to the answer: {self.ask_again}", "dim"))
        else:
            self.write(s("  That was the last hint.", "dim"))

    def done(self) -> None:
        s = self.style
        self.write(s("Every koan on the path is solved. Well walked.", "green", "bold"))
        self.write(s(f"See where you stand: {RUNNER} list", "dim"))


def lesson_opening(readme: str) -> tuple[str, str]:
    """A topic lesson's heading and first paragraph: what fits on a screen beside the koan."""
    heading, paragraphs = "", list[str]()
    for raw in readme.strip().split("\n\n"):
        block = raw.strip()
        if block.startswith("#") and not heading and not paragraphs:
            heading = block.lstrip("#").strip()
        elif block and not block.startswith("#"):
            paragraphs.append(block)
            break
    return heading, paragraphs[0] if paragraphs else ""


def wrap(text: str, width: int) -> list[str]:
    """Paragraphs re-flowed to the terminal's width; lines of code (indented) kept as they are."""
    import textwrap

    rows: list[str] = []
    for block in text.strip().split("\n\n"):
        lines = block.splitlines()
        if any(line.startswith("    ") for line in lines):
            rows += lines
        else:
            rows += textwrap.wrap(" ".join(line.strip() for line in lines), width) or [""]
        rows.append("")
    return rows[:-1]


LABELS = {
    "blank": "a blank to fill",
    "wrong": "not yet true",
    "error": "Python raised an error",
    "broken": "this file does not load",
    "timeout": "stopped: it ran too long",
    "crashed": "Python crashed",
    "missing": "missing",
    "changed": "changed outside the blanks",
    "unknown": "not run",
    "foreign": "a file the course did not ship",
}
