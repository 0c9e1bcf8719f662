"""What every picture draws with: a pen (Unicode or ASCII, colour or not), a canvas of box lines
that join themselves, and the final check that a picture fits 80 columns.

The caller decides the style: nothing here looks at the terminal, the environment or a stream.
Colour never changes the layout: a picture drawn in colour is the plain one with ANSI codes
around some of its runs, so stripping the codes gives back the plain picture exactly.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

WIDTH = 80
ANSI = re.compile(r"\033\[[0-9;]*m")
TRAILING = re.compile(r" +((?:\033\[[0-9;]*m)*)$")
EMPTY_RUN = re.compile(r"\033\[[0-9;]*m\033\[0m")

CODES = {"bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "blue": "34",
         "magenta": "35", "cyan": "36"}

# (up, down, left, right) -> the box character that joins those arms
_JOIN = {
    (0, 0, 1, 1): "─", (0, 0, 1, 0): "─", (0, 0, 0, 1): "─",
    (1, 1, 0, 0): "│", (1, 0, 0, 0): "│", (0, 1, 0, 0): "│",
    (0, 1, 0, 1): "┌", (0, 1, 1, 0): "┐", (1, 0, 0, 1): "└", (1, 0, 1, 0): "┘",
    (0, 1, 1, 1): "┬", (1, 0, 1, 1): "┴", (1, 1, 0, 1): "├", (1, 1, 1, 0): "┤", (1, 1, 1, 1): "┼",
}
UP, DOWN, LEFT, RIGHT = 8, 4, 2, 1
TIMES = "\u00d7"  # the multiplication sign


class Pen:
    """The style a picture is drawn in: ``unicode`` picks box-drawing and block characters over
    plain ASCII, ``color`` wraps runs in ANSI colour codes."""

    def __init__(self, unicode: bool = True, color: bool = False) -> None:
        self.unicode = bool(unicode)
        self.color = bool(color)

    def __call__(self, text: str, *styles: str | None) -> str:
        """``text`` painted in ``styles`` (names in CODES; None is ignored) when colour is on."""
        names = [s for s in styles if s]
        if not self.color or not names or not text:
            return text
        return f"\033[{';'.join(CODES[s] for s in names)}m{text}\033[0m"

    def ch(self, unicode: str, ascii: str) -> str:
        """The Unicode form, or its ASCII stand-in."""
        return unicode if self.unicode else ascii

    def fit(self, text: str, width: int) -> str:
        """``text`` cut to ``width`` characters, ending in an ellipsis of this style when cut."""
        return fit(text, width, self.ch("…", "..."))

    def join(self, arms: int) -> str:
        """The line character with the given arms (UP | DOWN | LEFT | RIGHT)."""
        key = (int(bool(arms & UP)), int(bool(arms & DOWN)), int(bool(arms & LEFT)),
               int(bool(arms & RIGHT)))
        char = _JOIN.get(key, " ")
        if self.unicode or char == " ":
            return char
        return {"─": "-", "│": "|"}.get(char, "+")

    def cells(self, texts: Iterable[str]) -> str:
        """One row of a table of boxes: ``│a│bb│`` (texts already fitted to their widths)."""
        v = self.join(UP | DOWN)
        return v + v.join(texts) + v

    def border(self, widths: list[int], where: str) -> str:
        """The top (``where="top"``), middle or bottom border of a row of boxes."""
        down, up = where in ("top", "mid"), where in ("mid", "bottom")
        vert = (UP if up else 0) | (DOWN if down else 0)
        h = self.join(LEFT | RIGHT)
        out = self.join(vert | RIGHT)
        for i, w in enumerate(widths):
            out += h * w + self.join(vert | LEFT | (RIGHT if i < len(widths) - 1 else 0))
        return out


class Canvas:
    """A grid to draw on: text, and lines whose crossings and corners join themselves."""

    def __init__(self, pen: Pen) -> None:
        self.pen = pen
        self.text_cells: dict[tuple[int, int], tuple[str, tuple[str | None, ...]]] = {}
        self.arms: dict[tuple[int, int], int] = {}
        self.line_style: dict[tuple[int, int], tuple[str | None, ...]] = {}

    def text(self, row: int, col: int, text: str, *styles: str | None) -> None:
        for i, char in enumerate(text):
            self.text_cells[row, col + i] = (char, styles)

    def _arm(self, row: int, col: int, arms: int, styles: tuple[str | None, ...]) -> None:
        self.arms[row, col] = self.arms.get((row, col), 0) | arms
        if styles or (row, col) not in self.line_style:
            self.line_style[row, col] = styles

    def hline(self, row: int, c0: int, c1: int, *styles: str | None) -> None:
        """A horizontal line from column c0 to c1 (either order), ends included."""
        a, b = sorted((c0, c1))
        for c in range(a, b + 1):
            self._arm(row, c, (LEFT if c > a else 0) | (RIGHT if c < b else 0), styles)

    def vline(self, col: int, r0: int, r1: int, *styles: str | None) -> None:
        """A vertical line from row r0 to r1 (either order), ends included."""
        a, b = sorted((r0, r1))
        for r in range(a, b + 1):
            self._arm(r, col, (UP if r > a else 0) | (DOWN if r < b else 0), styles)

    def box(self, r0: int, c0: int, r1: int, c1: int, *styles: str | None) -> None:
        """A rectangle with corners (r0, c0) and (r1, c1)."""
        self.hline(r0, c0, c1, *styles)
        self.hline(r1, c0, c1, *styles)
        self.vline(c0, r0, r1, *styles)
        self.vline(c1, r0, r1, *styles)

    def render(self) -> list[str]:
        width: dict[int, int] = {}
        for r, c in (*self.text_cells, *self.arms):
            width[r] = max(width.get(r, 0), c + 1)
        lines = []
        for r in range(max(width, default=-1) + 1):
            runs: list[tuple[str, tuple[str | None, ...]]] = []
            for c in range(width.get(r, 0)):
                if (r, c) in self.text_cells:
                    char, styles = self.text_cells[r, c]
                elif (r, c) in self.arms:
                    char, styles = self.pen.join(self.arms[r, c]), self.line_style[r, c]
                else:
                    char, styles = " ", ()
                if runs and runs[-1][1] == styles:
                    runs[-1] = (runs[-1][0] + char, styles)
                else:
                    runs.append((char, styles))
            lines.append("".join(self.pen(t, *s) for t, s in runs))
        return lines


def visible(line: str) -> str:
    """The line as the terminal shows it: without its colour codes."""
    return ANSI.sub("", line)


def fit(text: str, width: int, ellipsis: str = "…") -> str:
    """``text`` cut to ``width`` characters, ending in ``ellipsis`` when cut."""
    if len(text) <= width:
        return text
    return text[: max(width - len(ellipsis), 0)] + ellipsis[:width]


def _rstrip(line: str) -> str:
    """The line without trailing blanks, even those inside a coloured run."""
    while True:
        shorter = TRAILING.sub(r"\1", EMPTY_RUN.sub("", line))
        if shorter == line:
            return line
        line = shorter


def finish(lines: list[str], pen: Pen) -> list[str]:
    """The picture as returned: trailing blanks trimmed, ASCII only in the ASCII style (a
    caller's non-ASCII label is escaped), and every line within 80 columns, or ValueError."""
    out = []
    for raw in lines:
        line = _rstrip(raw)
        if not pen.unicode:
            line = line.replace("…", "...").encode("ascii", "backslashreplace").decode("ascii")
        if len(visible(line).rstrip()) > WIDTH:
            raise ValueError(f"the picture is wider than {WIDTH} columns: {visible(line)[:40]!r}...")
        out.append(line)
    return out


def human_bytes(n: int) -> str:
    """A byte count, short and exact: 512 B, 1.5 KiB, 2046.5 KiB, 20 MiB (the largest unit
    that shows it exactly with at most one decimal)."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if abs(n) >= size and (n * 10) % size == 0:
            tenths = abs(n) * 10 // size
            sign = "-" if n < 0 else ""
            return f"{sign}{tenths // 10}{'.' + str(tenths % 10) if tenths % 10 else ''} {unit}"
    return f"{n} B"
