"""``explain [KOAN]``: a koan's lesson again, and its picture once it is solved."""

from __future__ import annotations

from typing import Any

from .view import RUNNER


def cmd_explain(app: Any, args: Any, koans_named: Any) -> int:
    """A koan's lesson, and its picture once it is solved (drawn by running its answer)."""
    from .course import koan_source, test_name

    data = app.store.read()
    target = args.koan
    if not target:
        solved = sorted(((e.get("solved_at", 0), k) for k, e in data["koans"].items()
                         if e.get("kind") == "passed" and e.get("solved_at")), reverse=True)
        current = (data.get("current") or {}).get("key")
        target = solved[0][1] if solved else current
        if not target:
            app.view.write(f"Nothing to explain yet: solve a koan first. Next: {RUNNER}")
            return 1
    target = target if target.startswith("koans/") else f"koans/{target}"
    found = koans_named(app, target)
    if isinstance(found, str) or not found[1]:
        app.view.write(found if isinstance(found, str) else "explain names one koan: FILE::test_name")
        return 2
    f, name = found[0][0], found[1].split("[")[0]
    source = koan_source(f.read() or "", name)
    app.view.write(app.view.style(f"{f.rel}::{name}", "bold"))
    for row in (source.lesson if source else "").splitlines():
        app.view.write("  " + row)
    if data["koans"].get(f"{f.rel[len('koans/'):]}::{name}", {}).get("kind") != "passed":
        app.view.write(app.view.style("  Its picture shows once it is solved: it would give the "
                                      "answer away.", "dim"))
        return 0
    if not app.course.hints(f.topic, name).get("picture"):
        app.view.write(app.view.style("  This koan has no picture.", "dim"))
        return 0
    result = app.runner.run("answers" + f.rel[len("koans"):], f.needs(), [name])
    rows: list[dict[str, Any]] = [r for r in result["koans"] if test_name(r["nodeid"]) == name]
    picture: dict[str, Any] = (rows[0].get("picture") if rows else None) or {}
    if picture.get("error"):
        app.view.write(f"  The picture cannot be drawn here: {picture['error']}")
        return 1
    app.view.picture(picture)
    return 0
