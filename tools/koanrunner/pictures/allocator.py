"""The CUDA caching allocator's segments and the blocks they are cut into."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._pen import Pen, finish, human_bytes

BAR = 64  # columns of a segment's bar
MAX_SEGMENTS = 6  # drawn; the rest are summed up
MAX_BLOCKS = 24  # in one segment
LISTED = 6  # blocks of a segment listed one to a line
STATES = {"active_allocated": ("allocated", "█", "#", "green"),
          "active_pending_free": ("pending free", "▒", "~", "yellow"),
          "inactive": ("cached", "░", ".", "dim")}


def model_segments(allocator: Any) -> list[dict[str, Any]]:
    """The segments of a pure-Python model of the allocator (the kata's ``Allocator``), in the
    shape of ``torch.cuda.memory_snapshot()``: a dict per segment with ``address``,
    ``total_size``, ``segment_type`` and ``blocks``, each block a dict with ``address``,
    ``size`` and ``state``. Read duck-typed: ``allocator.pools`` (lists of free blocks) and
    ``allocator.live`` (the blocks in use), blocks with ``address``, ``size``, ``allocated``,
    ``pool``, ``prev`` and ``next``."""
    try:
        blocks = [b for pool in allocator.pools.values() for b in pool] + list(allocator.live.values())
    except AttributeError as exc:
        raise ValueError(f"model_segments needs an allocator with pools and live blocks: {exc}") from None
    heads = {}
    for block in blocks:
        head = block
        while getattr(head, "prev", None) is not None:
            head = head.prev
        heads[id(head)] = head
    segments = []
    for head in sorted(heads.values(), key=lambda b: b.address):
        chain, block = [], head
        while block is not None:
            chain.append({"address": block.address, "size": block.size,
                          "state": "active_allocated" if block.allocated else "inactive"})
            block = getattr(block, "next", None)
        segments.append({"address": head.address, "total_size": sum(b["size"] for b in chain),
                         "segment_type": getattr(head, "pool", ""), "blocks": chain})
    return segments


def _widths(sizes: list[int], room: int) -> list[int]:
    """Columns for each block, in proportion to its size, at least one each."""
    total = sum(sizes) or 1
    exact = [s * room / total for s in sizes]
    widths = [max(1, int(x)) for x in exact]
    order = sorted(range(len(sizes)), key=lambda i: exact[i] - int(exact[i]), reverse=True)
    k = 0
    while sum(widths) < room:
        widths[order[k % len(order)]] += 1
        k += 1
    while sum(widths) > room:
        i = max(range(len(widths)), key=lambda j: widths[j])
        widths[i] -= 1
    return widths


def _segments(segments: Any) -> list[Any]:
    if hasattr(segments, "pools") and hasattr(segments, "live"):
        return model_segments(segments)
    if isinstance(segments, Mapping):
        segments = segments.get("segments", ())
    try:
        out = list(segments)
        missing = [k for seg in out for k in ("total_size", "blocks") if k not in seg]
    except TypeError as exc:
        raise ValueError(f"allocator_segments needs segments with total_size and blocks: {exc!r}") from None
    if missing:
        raise ValueError(f"allocator_segments needs segments with total_size and blocks: {missing[0]!r} is missing")
    return out


def allocator_segments(segments: Any, *, unicode: bool = True, color: bool = False) -> list[str]:
    """Each segment the caching allocator holds (reserved from the driver with cudaMalloc) as
    a bar, cut into its blocks in proportion to their sizes: allocated (a tensor uses it),
    cached (free, kept for the next request) or pending free. A segment of several blocks
    has been split; a segment wholly cached is what ``empty_cache()`` hands back.

    ``segments``: the list ``torch.cuda.memory_snapshot()`` returns (or the dict
    ``torch.cuda.memory._snapshot()`` returns), each segment a dict with ``total_size`` and
    ``blocks`` (dicts with ``size`` and ``state``: 'active_allocated', 'active_pending_free'
    or 'inactive'; ``requested_size`` and ``address`` are shown when present); or a model of
    the allocator, read by ``model_segments``."""
    pen = Pen(unicode, color)
    segs = _segments(segments)
    reserved = sum(int(s["total_size"]) for s in segs)
    by_state = dict.fromkeys(STATES, 0)
    for seg in segs:
        for block in seg["blocks"]:
            state = block.get("state")
            if state not in STATES:
                raise ValueError(f"a block's state is {state!r}, not one of {', '.join(STATES)}")
            by_state[state] += int(block["size"])
    lines = [pen(f"caching allocator: {len(segs)} segment{'s' if len(segs) != 1 else ''}, "
                 f"{human_bytes(reserved)} reserved", "bold"),
             f"  allocated {human_bytes(by_state['active_allocated'])}, cached "
             f"{human_bytes(by_state['inactive'])}"
             + (f", pending free {human_bytes(by_state['active_pending_free'])}"
                if by_state["active_pending_free"] else "")]
    if not segs:
        lines.append("  (no segments: nothing reserved)")
    for number, seg in enumerate(segs[:MAX_SEGMENTS]):
        lines += _segment(number, seg, pen)
    if len(segs) > MAX_SEGMENTS:
        rest = sum(int(s["total_size"]) for s in segs[MAX_SEGMENTS:])
        lines.append(f"  and {len(segs) - MAX_SEGMENTS} more segments, {human_bytes(rest)}")
    present = {b.get("state") for seg in segs for b in seg["blocks"]}
    key = "  ".join(f"{pen(STATES[s][1 if unicode else 2] * 2, STATES[s][3])} {STATES[s][0]}"
                    for s in STATES if s in present)
    if key:
        lines.append(f"  {key}")
    return finish(lines, pen)


def _segment(number: int, seg: Mapping[str, Any], pen: Pen) -> list[str]:
    total = int(seg["total_size"])
    blocks = [dict(b) for b in seg["blocks"]]
    if len(blocks) > MAX_BLOCKS:
        raise ValueError(f"segment {number} has {len(blocks)} blocks: at most {MAX_BLOCKS} are drawn")
    used = sum(int(b["size"]) for b in blocks)
    if used > total or total <= 0:
        raise ValueError(f"segment {number}: its blocks add up to {used} bytes of {total}")
    if used < total:
        blocks.append({"size": total - used, "state": None})  # not accounted for by the snapshot
    where = seg.get("address")
    pool = seg.get("segment_type") or ""
    head = f"  segment {number}: {human_bytes(total)}" + (f", {pool} pool" if pool else "")
    head += f", at 0x{where:x}" if isinstance(where, int) else ""
    states = {b["state"] for b in blocks}
    if len(blocks) > 1:
        head += f", split into {len(blocks)} blocks"
    lines = [head]
    widths = _widths([int(b["size"]) for b in blocks], BAR - (len(blocks) - 1))
    texts = []
    for b, w in zip(blocks, widths, strict=True):
        name, uni, asc, colour = STATES.get(b["state"], ("unknown", " ", " ", None))
        fill = uni if pen.unicode else asc
        label = f" {human_bytes(int(b['size']))} "
        body = (fill * ((w - len(label)) // 2) + label).ljust(w, fill) if len(label) + 2 <= w else fill * w
        texts.append(pen(body, colour))
    lines += ["  " + pen.border(widths, "top"), "  " + pen.cells(texts),
              "  " + pen.border(widths, "bottom")]
    start = 0
    for b in blocks[:LISTED]:
        name = STATES.get(b["state"], ("not in the snapshot",))[0]
        asked = b.get("requested_size")
        extra = f" (requested {human_bytes(int(asked))})" if asked and b["state"] == "active_allocated" else ""
        lines.append(f"    +{human_bytes(start):<10} {human_bytes(int(b['size'])):>10}  {name}{pen.fit(extra, 34)}")
        start += int(b["size"])
    if len(blocks) > LISTED:
        lines.append(f"    and {len(blocks) - LISTED} more blocks")
    if states == {"inactive"}:
        lines.append("    wholly cached: empty_cache() hands it back to the driver")
    return lines
