"""A small object graph: names, objects, the references between them, reference counts, and
the cycles that keep counts above zero."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ._pen import Canvas, Pen, finish

MAX_OBJECTS = 12
MAX_CYCLES = 12
MAX_STEPS = 20000  # of the search for cycles


def _pairs(edges: Any) -> list[tuple[str, str]]:
    if isinstance(edges, Mapping):
        edges = [(src, dst) for src, targets in edges.items()
                 for dst in ([targets] if isinstance(targets, str) else targets)]
    try:
        return [(str(src), str(dst)) for src, dst in edges]
    except (TypeError, ValueError) as exc:
        raise ValueError(f"object_graph needs (source, target) pairs or a dict of lists: {exc}") from None


def find_cycles(nodes: list[str], edges: Iterable[tuple[str, str]]) -> list[list[str]]:
    """The simple cycles of a small directed graph, each starting at its earliest node in
    ``nodes`` order (at most 12; ValueError if the search grows too long)."""
    out: dict[str, list[str]] = {n: [] for n in nodes}
    for src, dst in edges:
        if dst not in out[src]:
            out[src].append(dst)
    rank = {n: i for i, n in enumerate(nodes)}
    cycles: list[list[str]] = []
    steps = 0
    for start in nodes:
        stack = [(start, [start])]
        while stack:
            node, path = stack.pop()
            steps += 1
            if steps > MAX_STEPS:
                raise ValueError("the graph has too many paths to search for cycles")
            for nxt in reversed(out[node]):
                if nxt == start:
                    cycles.append([*path, start])
                    if len(cycles) > MAX_CYCLES:
                        raise ValueError(f"the graph has more than {MAX_CYCLES} cycles")
                elif rank[nxt] > rank[start] and nxt not in path:
                    stack.append((nxt, [*path, nxt]))
    return sorted(cycles, key=lambda c: [rank[n] for n in c])


def _reachable(roots: Iterable[str], edges: list[tuple[str, str]]) -> set[str]:
    seen, todo = set(), list(roots)
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            todo += [dst for src, dst in edges if src == node]
    return seen


def object_graph(edges: Any, names: Any = None, refcounts: Mapping[Any, int] | None = None, *,
                 unicode: bool = True, color: bool = False) -> list[str]:
    """Objects as boxes, one under another; a name's arrow points into its object from the
    left, and each reference leaves an object's box on the right (upper row) and enters its
    target's box (lower row, at the arrowhead). References that belong to a cycle are marked.

    ``edges``: (source, target) pairs of object labels, or a dict {source: [targets]} (a
    reference held twice is listed twice), or a model heap (the refcount kata's ``Heap``: an
    ``objects`` dict of objects with ``refs`` and ``refcount``, read duck-typed). ``names``: a dict {name: object} or (name, object)
    pairs, the variables; when given, objects no name can reach are called out. ``refcounts``:
    {object: count}; by default each object's count is the references drawn (names and
    objects). The cycles are found here; below the picture each is listed, with what frees
    its objects."""
    pen = Pen(unicode, color)
    heap = getattr(edges, "objects", None)
    if isinstance(heap, Mapping):  # a model heap: objects with refs and refcounts
        try:
            edges = [(str(name), str(t)) for name, obj in heap.items() for t in obj.refs]
            refcounts = {**{str(n): int(o.refcount) for n, o in heap.items()}, **(refcounts or {})}
        except AttributeError as exc:
            raise ValueError(f"object_graph cannot read that heap's objects: {exc}") from None
    pairs = _pairs(edges)
    named: list[tuple[str, str]] = []
    if names is not None:
        items = names.items() if isinstance(names, Mapping) else names
        named = [(str(n), str(o)) for n, o in items]
    seen: list[str] = []
    extra = [str(k) for k in refcounts] if refcounts is not None else []
    for label in [o for _, o in named] + [x for pair in pairs for x in pair] + extra:
        if label not in seen:
            seen.append(label)
    objects: list[str] = []  # breadth first from each name's object, so arrows mostly run down
    for root in seen:
        todo = [root]
        while todo:
            node = todo.pop(0)
            if node not in objects:
                objects.append(node)
                todo += [d for s, d in pairs if s == node]
    if not objects:
        raise ValueError("object_graph needs at least one object")
    if len(objects) > MAX_OBJECTS:
        raise ValueError(f"{len(objects)} objects: object_graph draws at most {MAX_OBJECTS}")
    counts = {o: sum(1 for _, t in named if t == o) + sum(1 for _, t in pairs if t == o)
              for o in objects}
    if refcounts is not None:
        counts.update({str(k): int(v) for k, v in refcounts.items()})
    cycles = find_cycles(objects, pairs)
    in_cycle = {o for c in cycles for o in c}
    cycle_edges = {(c[i], c[i + 1]) for c in cycles for i in range(len(c) - 1)}
    reach = _reachable([o for _, o in named], pairs) if names is not None else set(objects)

    names_of = {o: ", ".join(n for n, t in named if t == o) for o in objects}
    name_w = max((len(t) for t in names_of.values()), default=0)
    name_w = min(name_w, 16)
    arrow = pen.ch("──▶", "-->")
    labels = {o: f" {pen.fit(o, 14)}  rc {counts[o]}" for o in objects}
    marks = {o: " " + ", ".join([*(["in a cycle"] if o in in_cycle else []),
                                 *([] if o in reach else ["unreachable"])]) for o in objects}
    box_w = max(len(t) + 1 for t in [*labels.values(), *marks.values()])
    left = 2 + (name_w + len(arrow) + 2 if name_w else 0)
    right = left + box_w + 1
    canvas = Canvas(pen)
    row_of = {o: 4 * i for i, o in enumerate(objects)}
    for o in objects:
        r = row_of[o]
        colour = "red" if o in in_cycle else None
        canvas.box(r, left, r + 3, right, colour)
        canvas.text(r + 1, left + 1, labels[o], "bold")
        if marks[o]:
            canvas.text(r + 2, left + 1, marks[o], "yellow" if o in reach else "dim")
        if names_of[o]:
            canvas.text(r + 1, 2, pen.fit(names_of[o], name_w).rjust(name_w) + " ", "cyan")
            canvas.text(r + 1, 2 + name_w + 1, arrow + " ", "cyan")

    spans = sorted(((abs(row_of[d] - row_of[s]), i) for i, (s, d) in enumerate(pairs)))
    lanes: list[list[tuple[int, int]]] = []
    lane_of = {}
    for _, i in spans:
        s, d = pairs[i]
        lo, hi = sorted((row_of[s] + 1, row_of[d] + 2))
        for k, taken in enumerate(lanes):
            if all(hi < a or lo > b for a, b in taken):
                taken.append((lo, hi))
                lane_of[i] = k
                break
        else:
            lanes.append([(lo, hi)])
            lane_of[i] = len(lanes) - 1
    if right + 3 + 2 * len(lanes) > 80:
        raise ValueError(f"{len(pairs)} references need more than 80 columns")
    for i, (s, d) in enumerate(pairs):
        col = right + 3 + 2 * lane_of[i]
        colour = "red" if (s, d) in cycle_edges else None
        canvas.hline(row_of[s] + 1, right + 1, col, colour)
        canvas.vline(col, row_of[s] + 1, row_of[d] + 2, colour)
        canvas.hline(row_of[d] + 2, right + 1, col, colour)
    for i, (_, d) in enumerate(pairs):
        canvas.text(row_of[d] + 2, right + 1, pen.ch("◀", "<"),
                    "red" if pairs[i] in cycle_edges else None)

    lines = canvas.render()
    to = pen.ch(" → ", " -> ")
    for c in cycles[:5]:
        lines.append(pen(f"  cycle: {pen.fit(to.join(c), 70)}", "red"))
    if len(cycles) > 5:
        lines.append(f"  and {len(cycles) - 5} more cycles")
    if refcounts is None:
        lines.append("  rc: the references drawn here, from names and from objects")
    lost = [o for o in objects if o not in reach]
    if lost:
        lines.append(f"  no name reaches {pen.fit(', '.join(lost), 60)}:")
        if any(counts[o] > 0 for o in lost if o in in_cycle):
            lines.append("  a cycle keeps their counts above 0; only the cycle collector frees them")
        elif all(counts[o] == 0 for o in lost):
            lines.append("  their counts are 0: they are freed at once")
        else:
            lines.append("  their counts are above 0: something not drawn still holds them")
    return finish(lines, pen)
