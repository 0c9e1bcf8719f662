"""A koan that names a picture shows it once solved, at 80 columns on a terminal and in plain
ASCII under TERM=dumb or KOANS_ASCII=1; the checker proves every named picture draws for its answer."""

from __future__ import annotations

import subprocess
import sys

from runner_support import NUMBERS_FILE, REPO

PICTURE = '\n[test_one_plus_one_is_two]\npicture = "int_bits(300, width=8)"\n'


def name_a_picture(course, expression: str = "int_bits(300, width=8)") -> None:
    hints = course.path("koans/01_basics/hints.toml")
    text = hints.read_text().replace('[test_one_plus_one_is_two]\n',
                                     f'[test_one_plus_one_is_two]\npicture = "{expression}"\n', 1)
    hints.write_text(text)


def test_a_solved_koan_shows_its_picture_at_80_columns_and_in_ascii(course, tmp_path) -> None:
    from kata_support import PtySession

    name_a_picture(course)
    course.run()
    course.edit(NUMBERS_FILE, "assert 1 + 1 == __", "assert 1 + 1 == 2")
    session = PtySession(course, columns=80, LINES="24")
    try:
        out = session.wait_for_text(lambda text: "The picture" in text and "wraps to 44" in text)
    finally:
        session.close()
    rows = [row for row in out.replace("\r", "").split("\n") if "wraps to 44" in row or "weight" in row]
    assert rows and all(len(row) <= 80 for row in rows)
    assert "┌" in out  # box drawing on a UTF-8 terminal
    course.run("reset", NUMBERS_FILE)
    course.run()
    course.edit(NUMBERS_FILE, "assert 1 + 1 == __", "assert 1 + 1 == 2")
    dumb = course.run(TERM="dumb", PYTHONIOENCODING="ascii")
    assert "wraps to 44" in dumb.stdout and "+-----+" in dumb.stdout
    assert all(ord(ch) < 128 for ch in dumb.stdout.split("The picture")[1][:2000])
    explained = course.run("explain", f"{NUMBERS_FILE}::test_one_plus_one_is_two")
    assert "wraps to 44" in explained.stdout
    plain = course.run("explain", f"{NUMBERS_FILE}::test_one_plus_one_is_two", KOANS_ASCII="1",
                       PYTHONIOENCODING="utf-8")
    assert "+-----+" in plain.stdout and "┌" not in plain.stdout


def test_the_checker_proves_every_named_picture_draws(course) -> None:
    name_a_picture(course, "int_bits(no_such_name)")
    check = subprocess.run([sys.executable, str(REPO / "tools" / "check.py"), "--root",
                            str(course.root), "--quick", "-n", "1"], capture_output=True,
                           text=True, timeout=600, check=False)
    assert check.returncode == 1
    assert "its picture does not draw for its answer" in check.stdout, check.stdout


def test_a_long_expression_is_left_out_of_the_heading_so_it_never_wraps() -> None:
    import io

    sys.path.insert(0, str(REPO / "tools"))
    from koanrunner.view import Style, View

    out = io.StringIO()
    view = View(Style(out, color=False))
    view.picture({"expression": "int_bits(300)", "unicode": ["row"], "ascii": ["row"]})
    long = 'stack_effects(compile("def chain(a, b, c, d):\\n    return ((a + b) + c) + d", "<k>", "exec"))'
    view.picture({"expression": long, "unicode": ["row"], "ascii": ["row"]})
    lines = out.getvalue().splitlines()
    assert lines == ["  The picture (int_bits(300)):", "  row", "  The picture:", "  row"]
