"""Which thread or task ran when, from recorded events: one lane each."""

from __future__ import annotations

from typing import Any

from ._pen import Pen, finish

MAX_LANES = 6
MAX_EVENTS = 80
STRIP = 60  # events drawn in the summary strip
COLOURS = ("cyan", "green", "magenta", "yellow", "blue", "red")


def _events(events: Any) -> list[tuple[str, str, str]]:
    out = []
    try:
        for event in events:
            if len(event) == 3:
                t, who, what = event
                stamp = f"{t:g}" if isinstance(t, float) else str(t)
            elif len(event) == 2:
                (who, what), stamp = event, ""
            else:
                raise ValueError(f"an event is (who, what) or (t, who, what), not {event!r}")
            out.append((stamp, str(who), "" if what is None else str(what)))
    except TypeError as exc:
        raise ValueError(f"timeline needs a list of (who, what) or (t, who, what): {exc}") from None
    return out


def timeline(events: Any, *, unicode: bool = True, color: bool = False) -> list[str]:
    """Who ran when: a lane for each thread or task, in order of first appearance, and a row
    for each event in the order recorded (no timing is needed: the order is the picture). A
    lane shows a block where its thread ran and what it did, and a line while it has started
    and not yet finished (between its first and last event). A strip at the top sums it up,
    one column per event.

    ``events``: (who, what) pairs, or (t, who, what) triples whose t is shown in the step
    column (a clock reading, a tick: whatever the recording has)."""
    pen = Pen(unicode, color)
    rows = _events(events)
    if not rows:
        raise ValueError("timeline needs at least one event")
    if len(rows) > MAX_EVENTS:
        raise ValueError(f"{len(rows)} events: timeline draws at most {MAX_EVENTS}")
    lanes: list[str] = []
    for _, who, _ in rows:
        if who not in lanes:
            lanes.append(who)
    if len(lanes) > MAX_LANES:
        raise ValueError(f"{len(lanes)} threads or tasks: timeline draws at most {MAX_LANES}")
    first = {w: min(i for i, r in enumerate(rows) if r[1] == w) for w in lanes}
    last = {w: max(i for i, r in enumerate(rows) if r[1] == w) for w in lanes}
    colour = {w: COLOURS[i % len(COLOURS)] for i, w in enumerate(lanes)}
    block, line, idle = pen.ch("█", "#"), pen.ch("│", "|"), pen.ch("─", "-")
    stamped = any(stamp for stamp, _, _ in rows)
    step_w = max(4, *(len(pen.fit(s, 8)) for s, _, _ in rows)) if stamped else 4
    lane_w = min((80 - 2 - step_w - 2) // len(lanes), 30)
    name_w = min(max(len(w) for w in lanes), 16)

    kind = "lane" if len(lanes) == 1 else "lanes"
    lines = [pen(f"timeline: {len(lanes)} {kind}, {len(rows)} events in the order recorded", "bold")]
    if len(rows) <= STRIP:
        k = 2 if len(rows) <= STRIP // 2 else 1
        for w in lanes:
            strip = "".join(
                pen(block * k, colour[w]) if who == w else idle * k if first[w] < i < last[w]
                else " " * k for i, (_, who, _) in enumerate(rows))
            lines.append(f"  {pen(pen.fit(w, name_w).ljust(name_w), colour[w])}  {strip}")
        lines.append("")
    head = "  " + ("t" if stamped else "step").rjust(step_w) + "  "
    head += "".join(pen(pen.fit(w, lane_w - 1).ljust(lane_w), colour[w]) for w in lanes)
    lines.append(head)
    for i, (stamp, who, what) in enumerate(rows):
        text = "  " + (pen.fit(stamp, 8) if stamped else str(i)).rjust(step_w) + "  "
        for w in lanes:
            if w == who:
                cell = pen(f"{block} {pen.fit(what, lane_w - 3)}".ljust(lane_w), colour[w])
            elif first[w] < i < last[w]:
                cell = pen(line, "dim") + " " * (lane_w - 1)
            else:
                cell = " " * lane_w
            text += cell
        lines.append(text)
    return finish(lines, pen)
