"""Template strings (PEP 750, Python 3.14): a string literal that a library gets to read in parts.

The `t` prefix cannot stand in this file itself, since Pythons before 3.14 would reject the
whole file. Each koan writes its t-string as text and has `template()` evaluate it.
"""

import sys
from html import escape

import pytest

pytestmark = pytest.mark.skipif(
    sys.version_info < (3, 14),
    reason="template strings are new in Python 3.14 (PEP 750): before, t\"...\" is a SyntaxError, "
    "and an f-string is the only literal that interpolates, always straight into one str",
)


def template(literal, **names):
    """Evaluate a t-string literal, given as text, with `names` as its variables."""
    return eval(literal, {}, names)


def test_a_t_string_keeps_the_literal_text_apart_from_the_values():
    """An f-string is joined into one str before anyone sees it. A t-string evaluates to a
    string.templatelib.Template instead, which keeps the pieces apart: `.strings` holds the
    literal text the author wrote, `.interpolations` what was computed in between, and there
    is always exactly one more string than interpolations, even where a piece of text is
    empty."""
    greeting = template('t"{salutation}, {name}!"', salutation="Hello", name="ann")
    assert greeting.strings == ("", ", ", "!")


def test_an_interpolation_keeps_its_value_and_its_source_text():
    """The expression inside the braces is evaluated when the t-string is, as in an f-string.
    But nothing is converted or formatted: each Interpolation records the value, the
    expression's source text, and the conversion letter and format spec as written, and a
    library decides what to do with them."""
    (part,) = template('t"{count * 2!r:>5}"', count=21).interpolations
    assert (part.value, part.expression, part.conversion, part.format_spec) == (42, "count * 2", "r", ">5")


def html(document):
    """A renderer in a few lines: iterating over a Template gives its non-empty strings and its
    interpolations in order. The author's text is trusted; every value is escaped."""
    out = []
    for part in document:
        out.append(part if isinstance(part, str) else escape(str(part.value)))
    return "".join(out)


def test_a_library_renders_a_template_in_its_own_language():
    """With an f-string, a value that contains markup is pasted into the page as markup: the
    string arrives already joined, and nobody can tell the author's `<p>` from a visitor's
    `<script>`. A Template still knows which is which, so an HTML library can escape exactly
    the values: a domain-specific rule applied by a library, to syntax the language
    provides."""
    comment = "<script>alert(1)</script>"
    page = html(template('t"<p>{comment}</p>"', comment=comment))
    assert page == "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"
