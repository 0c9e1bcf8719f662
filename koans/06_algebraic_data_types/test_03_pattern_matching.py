"""`match` (Python 3.10+, PEP 634) takes a value apart by its structure: the natural way to
consume a product or a sum."""

import dataclasses
import enum


@dataclasses.dataclass
class Point:
    x: int
    y: int


@dataclasses.dataclass
class Ok:
    value: int


@dataclasses.dataclass
class Err:
    message: str


class Color(enum.Enum):
    RED = 1
    GREEN = 2


def test_class_pattern_with_positions_uses_dataclass_match_args():
    """A class pattern with positional sub-patterns needs to know which attribute each position
    means. @dataclass writes __match_args__ = ('x', 'y') for you, so Point(0, y) checks
    isinstance, then x == 0, then binds y."""
    match Point(0, 5):
        case Point(0, y):
            result = y
        case _:
            result = None
    assert result == __


def test_a_sum_type_is_consumed_by_one_case_per_alternative():
    """A Result is Ok or Err: a sum of two products. A match with one case per alternative
    is case analysis, the only safe way to use a value of a sum type, because you do not know in
    advance which side you hold."""

    def describe(result):
        match result:
            case Ok(value=v):
                return f"got {v}"
            case Err(message=m):
                return f"failed: {m}"

    assert describe(Err("disk full")) == __


def test_square_brackets_in_a_pattern_do_not_mean_list():
    """Square brackets in a pattern do not mean list: [a, b] and (a, b) are the same sequence
    pattern, and both match any collections.abc.Sequence of length 2 (bar the text types of the
    next koan)."""

    def describe(value):
        match value:
            case [a, b]:
                return "pair"
            case _:
                return "other"

    assert describe((1, 2)) == __


def test_sequence_patterns_exclude_the_text_types():
    """str is a Sequence, yet PEP 634 excludes str, bytes and bytearray from sequence patterns,
    because matching "ab" as ['a', 'b'] is almost always a bug."""

    def describe(value):
        match value:
            case [a, b]:
                return "pair"
            case _:
                return "other"

    assert describe("ab") == __


def test_a_star_pattern_always_collects_into_a_list():
    """A starred name in a sequence pattern gathers the rest into a new list, whatever the
    matched sequence was. Matching a tuple therefore gives you a list for `rest`, just like
    starred assignment does."""
    match (1, 2, 3):
        case [first, *rest]:
            pass
    assert rest == __


def test_a_guard_runs_only_after_the_pattern_has_bound_its_names():
    """`case Point(x, y) if x == y` first matches the structure and binds x and y, then
    evaluates the guard. If the guard is false, matching goes on with the next case, so guards
    refine a pattern by conditions that structure alone cannot state."""

    def classify(p):
        match p:
            case Point(x, y) if x == y:
                return "diagonal"
            case Point(0, _):
                return "y axis"
            case Point():
                return "elsewhere"

    assert classify(Point(0, 0)) == __
    assert classify(Point(0, 3)) == __


def test_a_bare_name_in_a_case_captures_instead_of_comparing():
    """A bare name in a pattern is a capture pattern: it matches anything and binds the subject
    to that name. It never compares with a variable of that name, so this `case RED` matches
    whatever the subject is, and rebinds RED."""
    RED = "red"
    match "blue":
        case RED:
            pass
    assert RED == __


def test_a_dotted_name_in_a_case_compares_by_value():
    """A dotted name like Color.RED is a value pattern: it is looked up and compared with ==.
    That is why enum members in patterns must be written with their class prefix."""

    def name_of(color):
        match color:
            case Color.RED:
                return "red"
            case _:
                return "not red"

    assert name_of(Color.GREEN) == __


def test_a_literal_pattern_compares_numbers_with_equality():
    """Number and string literal patterns use ==, so `case 1` matches every subject that
    compares equal to 1, whatever its type."""

    def is_one(value):
        match value:
            case 1:
                return True
            case _:
                return False

    assert [is_one(True), is_one(1.0), is_one("1")] == __


def test_the_true_pattern_compares_by_identity():
    """The singletons None, True and False are matched with `is`, not ==, although
    1 == True."""

    def is_true(value):
        match value:
            case True:
                return "True"
            case _:
                return "not True"

    assert is_true(1) == __


def test_a_class_pattern_is_an_isinstance_check():
    """`case int()` means isinstance(subject, int), and cases are tried top to bottom. bool
    is a subclass of int: put subclasses first."""

    def kind(value):
        match value:
            case int():
                return "integer"
            case bool():
                return "boolean"
            case _:
                return "other"

    assert kind(True) == __


def test_a_mapping_pattern_ignores_extra_keys():
    """A mapping pattern checks only the keys it names; any other keys are allowed (use
    **rest to capture them). Sequence patterns without a star, by contrast, must match the length
    exactly."""
    match {"type": "move", "x": 3, "y": 4}:
        case {"type": "move", "x": x}:
            result = x
        case _:
            result = None
    assert result == __
