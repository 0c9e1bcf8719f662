"""The value stack of CPython's bytecode, before and after each instruction of a listing."""

from __future__ import annotations

import dis
import sys
from typing import Any

from ._pen import Pen, finish

MAX_INSTRUCTIONS = 100
ITEM = 14  # characters of one stack item shown
LOADS = {"LOAD_FAST", "LOAD_FAST_CHECK", "LOAD_FAST_BORROW", "LOAD_FAST_AND_CLEAR", "LOAD_DEREF",
         "LOAD_CLOSURE", "LOAD_NAME", "LOAD_CLASSDEREF", "LOAD_GLOBAL", "LOAD_CONST",
         "LOAD_SMALL_INT", "LOAD_ASSERTION_ERROR", "LOAD_BUILD_CLASS", "LOAD_LOCALS",
         "LOAD_FROM_DICT_OR_DEREF", "LOAD_FROM_DICT_OR_GLOBALS", "PUSH_NULL", "LOAD_CONST_IMMORTAL",
         "LOAD_COMMON_CONSTANT", "LOAD_SPECIAL"}
STORES = {"STORE_FAST", "STORE_NAME", "STORE_GLOBAL", "STORE_DEREF", "POP_TOP"}
OLD_BINARY = {"ADD": "+", "SUBTRACT": "-", "MULTIPLY": "*", "TRUE_DIVIDE": "/", "FLOOR_DIVIDE": "//",
              "MODULO": "%", "POWER": "**", "AND": "&", "OR": "|", "XOR": "^", "LSHIFT": "<<",
              "RSHIFT": ">>", "MATRIX_MULTIPLY": "@"}
UNARY = {"UNARY_NEGATIVE": "-", "UNARY_POSITIVE": "+", "UNARY_INVERT": "~", "UNARY_NOT": "not "}
NO_FALLTHROUGH = {"JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_ABSOLUTE", "JUMP", "JUMP_NO_INTERRUPT",
                  "JUMP_BACKWARD_NO_INTERRUPT", "RETURN_VALUE", "RETURN_CONST", "RAISE_VARARGS",
                  "RERAISE"}
# dis counts these differently from the picture: a return's value leaves the frame (3.14's dis
# says it is replaced), and 3.11 splits a call between PRECALL and CALL
TRUSTED = {"RETURN_VALUE", "RETURN_CONST"} | ({"PRECALL", "CALL"} if sys.version_info[:2] == (3, 11)
                                               else set())
JUMPS = set(dis.hasjrel) | set(dis.hasjabs) | set(getattr(dis, "hasjump", ()))

Rule = tuple[int, list[str]]  # (items popped, names pushed)


def _call(top: list[str], pops: int, args: int) -> Rule:
    """A call: the callable (and NULL or self) under ``args`` arguments, one result."""
    taken = top[-pops:] if pops else []
    callee = next((t for t in taken[: pops - args] if t not in ("NULL", "?")), "?")
    return pops, [f"{callee}({', '.join(taken[pops - args:])})"]


def _rule(ins: Any, top: list[str]) -> Rule | None:
    """What a known instruction pops and pushes, with names; None to ask dis."""
    op, arg, argval, argrepr = ins.opname, ins.arg, ins.argval, ins.argrepr
    a = top[-1] if top else "?"
    b = top[-2] if len(top) > 1 else "?"
    if op in ("LOAD_FAST_LOAD_FAST", "LOAD_FAST_BORROW_LOAD_FAST_BORROW"):
        return 0, [str(v) for v in argval]
    if op in ("LOAD_GLOBAL", "LOAD_NAME", "LOAD_FAST", "LOAD_FAST_BORROW", "LOAD_FAST_CHECK",
              "LOAD_DEREF", "LOAD_CLOSURE") or op.startswith("LOAD_FAST_AND"):
        parts = argrepr.split(" + ") if argrepr else [str(argval)]
        return 0, parts
    if op in ("LOAD_CONST", "LOAD_SMALL_INT", "LOAD_CONST_IMMORTAL"):
        return 0, [repr(argval)]
    if op == "PUSH_NULL":
        return 0, ["NULL"]
    if op == "LOAD_ATTR":
        parts = argrepr.split(" + ")
        return 1, [a if p in ("NULL|self", "self") else "NULL" if p == "NULL" else f"{a}.{p}"
                   for p in parts]
    if op == "LOAD_METHOD":
        return 1, [f"{a}.{argval}", a]
    if op in STORES:
        return 1, []
    if op == "STORE_FAST_STORE_FAST":
        return 2, []
    if op == "STORE_FAST_LOAD_FAST":
        return 1, [str(argval[1])]
    if op == "RETURN_VALUE":
        return 1, []  # the value leaves the frame (3.14's dis counts it as replaced: 0)
    if op == "RETURN_CONST":
        return 0, []
    if op == "BINARY_OP":
        sym = argrepr or "?"
        return 2, [f"{b}[{a}]" if sym == "[]" else f"{b} {sym} {a}"]
    if op.startswith(("BINARY_", "INPLACE_")) and op.split("_", 1)[1] in OLD_BINARY:
        sym = OLD_BINARY[op.split("_", 1)[1]] + ("=" if op.startswith("INPLACE") else "")
        return 2, [f"{b} {sym} {a}"]
    if op == "BINARY_SUBSCR":
        return 2, [f"{b}[{a}]"]
    if op == "COMPARE_OP":
        sym = argrepr.removeprefix("bool(").removesuffix(")") or str(argval)
        return 2, [f"{b} {sym} {a}"]
    if op == "IS_OP":
        return 2, [f"{b} {'is not' if arg else 'is'} {a}"]
    if op == "CONTAINS_OP":
        return 2, [f"{b} {'not in' if arg else 'in'} {a}"]
    if op in UNARY:
        return 1, [f"{UNARY[op]}{a}"]
    if op == "TO_BOOL":
        return 1, [f"bool({a})"]
    if op == "PUSH_EXC_INFO":
        return 1, ["previous exc", a]
    if op == "CHECK_EXC_MATCH":
        return 1, [f"{b} matches {a}"]
    if op == "GET_ITER":
        return 1, [f"iter({a})"]
    if op == "FOR_ITER":
        return 0, [f"next({a})"]
    if op in ("BUILD_LIST", "BUILD_TUPLE", "BUILD_SET"):
        items = ", ".join(top[-arg:]) if arg else ""
        shape = {"BUILD_LIST": "[{}]", "BUILD_TUPLE": "({},)" if arg == 1 else "({})",
                 "BUILD_SET": "{{{}}}"}[op]
        return arg, [shape.format(items)]
    if op in ("NOP", "RESUME", "CACHE", "EXTENDED_ARG", "NOT_TAKEN", "RESUME_CHECK", "PRECALL",
              "KW_NAMES"):
        return 0, []  # 3.11's PRECALL: its CALL is drawn as taking the whole call off
    if op == "CALL" and sys.version_info >= (3, 11):
        return _call(top, arg + 2, arg)
    if op == "CALL_FUNCTION":
        return _call(top, arg + 1, arg)
    if op == "CALL_METHOD":
        return _call(top, arg + 2, arg)
    if op == "UNPACK_SEQUENCE":
        return 1, [f"{a}[{i}]" for i in reversed(range(arg))]
    if op == "COPY":
        return 0, [top[-arg] if len(top) >= arg else "?"]
    if op in ("DUP_TOP",):
        return 0, [a]
    return None


def _effect(ins: Any, jump: bool | None = None) -> int:
    for arg in (ins.arg, None, 0):
        try:
            return dis.stack_effect(ins.opcode, arg, jump=jump)
        except (ValueError, TypeError):
            continue
    raise ValueError(f"dis cannot tell the stack effect of {ins.opname}")


def _step(ins: Any, stack: list[str]) -> tuple[list[str], list[str]]:
    """The stack after ``ins`` falls through, and the names it pushed."""
    if ins.opname == "SWAP" and len(stack) >= ins.arg:
        new = list(stack)
        new[-1], new[-ins.arg] = new[-ins.arg], new[-1]
        return new, []
    if ins.opname in ("ROT_TWO", "ROT_THREE", "ROT_FOUR", "ROT_N"):
        n = {"ROT_TWO": 2, "ROT_THREE": 3, "ROT_FOUR": 4}.get(ins.opname, ins.arg or 0)
        if len(stack) >= n >= 1:
            return [*stack[:-n], stack[-1], *stack[-n:-1]], []
    rule = _rule(ins, stack)
    if rule is None or ins.opname not in TRUSTED:
        net = _effect(ins, jump=False if ins.opcode in JUMPS else None)
        pops, pushed = rule or (0, [])
        diff = net - (len(pushed) - pops)  # dis knows this version's opcodes: it has the last word
        if diff > 0:
            pushed = pushed + ["?"] * diff
        elif diff < 0:
            keep = max(len(pushed) + diff, 0)
            pops += -diff - (len(pushed) - keep)
            pushed = pushed[:keep]
        rule = pops, pushed
    pops, pushed = rule
    if pops > len(stack):
        raise ValueError(f"{ins.opname} at offset {ins.offset} pops {pops} of {len(stack)} items")
    return stack[: len(stack) - pops] + pushed, pushed


def _listing(what: Any) -> tuple[str, list[Any], list[Any]]:
    if isinstance(what, (list, tuple)):
        if not all(hasattr(i, "opname") and hasattr(i, "offset") for i in what):
            raise ValueError("stack_effects takes a function, a code object, or dis instructions")
        return "the listing", list(what), []
    try:
        bytecode = dis.Bytecode(what)
    except TypeError as exc:
        raise ValueError(f"stack_effects cannot disassemble {type(what).__name__}: {exc}") from None
    name = getattr(what, "__qualname__", None) or getattr(bytecode.codeobj, "co_qualname",
                                                           bytecode.codeobj.co_name)
    return f"{name}()", list(bytecode), list(getattr(bytecode, "exception_entries", ()))


def stack_effects(instructions: Any, *, unicode: bool = True, color: bool = False) -> list[str]:
    """CPython's value stack as a short listing runs: for each instruction its offset, name
    and argument, the stack depth before and after, and the stack after it (the row above is
    the stack before it), bottom on the left and top on the right. Items are named where the
    instruction says what it pushes (``LOAD_FAST x`` pushes ``x``, ``BINARY_OP +`` turns
    ``x``, ``y`` into ``x + y``); other pushes show as ``?``. Depths of unknown instructions
    come from ``dis.stack_effect``.

    ``instructions``: ``list(dis.get_instructions(fn))``, or the function or code object
    itself (then exception handlers start with the depth the exception table gives). After
    a return or an unconditional jump, the stack is taken from the jumps that lead there;
    where none does, the row shows ``?``. Works with the opcodes of Python 3.10 to 3.15."""
    pen = Pen(unicode, color)
    title, listing, handlers = _listing(instructions)
    if not listing:
        raise ValueError("no instructions to draw")
    if len(listing) > MAX_INSTRUCTIONS:
        raise ValueError(f"{len(listing)} instructions: stack_effects draws at most {MAX_INSTRUCTIONS}")
    entry: dict[int, list[str]] = {}
    for h in handlers:
        entry.setdefault(h.target, ["?"] * h.depth + (["lasti"] if h.lasti else []) + ["exception"])
    rows: list[tuple[Any, list[str] | None, list[str] | None, list[str]]] = []
    stack: list[str] | None = []
    for ins in listing:
        before = stack if stack is not None else entry.get(ins.offset)
        if before is None:
            rows.append((ins, None, None, []))
            continue
        after, pushed = _step(ins, before)
        if ins.opcode in JUMPS and isinstance(ins.argval, int):
            net = _effect(ins, jump=True)
            taken = before[: len(before) + net] if net < 0 else [*before, *["?"] * net]
            entry.setdefault(ins.argval, taken)
        rows.append((ins, before, after, pushed))
        stack = None if ins.opname in NO_FALLTHROUGH else after
    return finish(_render(title, rows, pen), pen)


def _render(title: str, rows: list[Any], pen: Pen) -> list[str]:
    width = min(max(len(_ins_text(r[0])) for r in rows), 38)
    arrow = pen.ch("→", "->")
    v = pen.join(12)  # UP | DOWN
    depths = [f"{len(b)}{arrow}{len(a)}" if a is not None else "?" for _, b, a, _ in rows]
    depth_w = max(5, *map(len, depths))
    lines = [pen(f"{title}: the value stack after each instruction, top on the right", "bold"),
             f"  {'offset':>6}  {'instruction':<{width}}  {'depth':<{depth_w}}  stack"]
    for (ins, _, after, pushed), depth in zip(rows, depths, strict=True):
        prefix = f"  {ins.offset:>6}  {pen.fit(_ins_text(ins), width):<{width}}  "
        if after is None:
            lines.append(prefix + f"{'?':^{depth_w}}")
            continue
        prefix += f"{depth:<{depth_w}}  "
        if not after:
            lines.append(prefix + pen("(empty)", "dim"))
            continue
        plain = [pen.fit(x, ITEM) for x in after]
        fresh = len(after) - len(pushed)
        more = pen.ch("…", "...")
        shown = len(plain)
        while shown > 1 and len(prefix) + len(_cells(plain[-shown:], v)) + (
                len(more) if shown < len(plain) else 0) > 80:
            shown -= 1
        items = [pen(x, "green" if k >= fresh else None) for k, x in enumerate(plain)]
        lines.append(prefix + (more if shown < len(plain) else "") + _cells(items[-shown:], v))
    return lines


def _cells(items: list[str], v: str) -> str:
    return v + v.join(f" {x} " for x in items) + v


def _ins_text(ins: Any) -> str:
    arg = ins.argrepr if ins.argrepr else ("" if ins.arg is None else repr(ins.argval))
    return f"{ins.opname} {arg}".rstrip()

