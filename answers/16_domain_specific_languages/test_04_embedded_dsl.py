"""Embedded DSLs: Python syntax, another language's meaning.

An embedded DSL borrows the host's parser and redefines what the operators mean. PySpark's
`df["age"] > 21` builds a query-plan node instead of a bool, and numpy's `a > 1` builds an
array. Below, `Col` is a twenty-line query builder in that style.
"""

import ast
import inspect
import sqlite3
import textwrap
from contextlib import closing

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st


def _sql(value):
    return value.sql() if isinstance(value, Expr) else repr(value)


def _value(value, row):
    return value.evaluate(row) if isinstance(value, Expr) else value


class Expr:
    """Operators build tree nodes. Truth testing is forbidden: a tree is not True or False."""

    def __gt__(self, other):
        return Node(">", self, other)

    def __lt__(self, other):
        return Node("<", self, other)

    def __eq__(self, other):
        return Node("=", self, other)

    def __and__(self, other):
        return Node("AND", self, other)

    __hash__ = None

    def __bool__(self):
        raise TypeError("a query expression has no truth value: combine conditions with &")


class Col(Expr):
    def __init__(self, name):
        self.name = name

    def sql(self):
        return self.name

    def evaluate(self, row):
        return row[self.name]


class Node(Expr):
    PYTHON = {">": lambda a, b: a > b, "<": lambda a, b: a < b,
              "=": lambda a, b: a == b, "AND": lambda a, b: a and b}

    def __init__(self, op, left, right):
        self.op, self.left, self.right = op, left, right

    def sql(self):
        return f"({_sql(self.left)} {self.op} {_sql(self.right)})"

    def evaluate(self, row):
        return self.PYTHON[self.op](_value(self.left, row), _value(self.right, row))


def run_in_sqlite(where, rows):
    """Compile the tree to a WHERE clause and let SQLite execute it."""
    with closing(sqlite3.connect(":memory:")) as db:
        db.execute("CREATE TABLE people (name TEXT, age INTEGER, dept TEXT)")
        db.executemany("INSERT INTO people VALUES (:name, :age, :dept)", rows)
        query = f"SELECT name FROM people WHERE {where.sql()} ORDER BY rowid"
        return [name for (name,) in db.execute(query)]


PEOPLE = [
    {"name": "ann", "age": 17, "dept": "a"},
    {"name": "bo", "age": 34, "dept": "a"},
    {"name": "cy", "age": 52, "dept": "b"},
]


def test_a_comparison_builds_a_tree_instead_of_a_bool():
    """`>` is just a call to `__gt__`, and nothing forces `__gt__` to return a bool. Here it
    returns a node of an expression tree, which can later be compiled to SQL."""
    assert (Col("age") > 21).sql() == "(age > 21)"


def test_a_reflected_comparison_flips_the_operator():
    """`21 < col` first asks `int.__lt__`, which does not know Col and returns NotImplemented.
    Python then tries the mirror image, `col.__gt__(21)`, so the tree records a `>`."""
    assert (21 < Col("age")).sql() == "(age > 21)"


def test_ampersand_is_the_overloadable_and():
    """`&` calls `__and__`, so a DSL can make it combine conditions into a bigger tree. Python's
    own `and` cannot be overloaded at all."""
    where = (Col("age") > 21) & (Col("dept") == "a")
    assert where.sql() == "((age > 21) AND (dept = 'a'))"


def test_the_and_keyword_asks_for_a_truth_value():
    """`x and y` must decide whether x is true, so it calls `bool(x)`, which the DSL refuses:
    better an error than a silently wrong filter. numpy arrays and torch tensors refuse too,
    each with its own exception."""
    with pytest.raises(TypeError):
        (Col("age") > 21) and (Col("dept") == "a")


def test_a_chained_comparison_hides_an_and():
    """`18 < age < 65` means `(18 < age) and (age < 65)`: the hidden `and` needs the truth of
    the first comparison, so a chained comparison cannot build a tree either."""
    with pytest.raises(TypeError):
        18 < Col("age") < 65


def test_in_checks_identity_before_calling_eq():
    """`x in some_list` goes through the items in order and asks of each: is it the very same
    object (`is`), or else, does `==` say true? In this DSL `==` on two columns builds a tree,
    and a tree refuses to be true or false. Each search below ends in an answer or in the
    DSL's refusal."""
    age = Col("age")
    outcomes = {}
    for label, items in {"age first": [age, Col("name")], "age last": [Col("name"), age]}.items():
        try:
            outcomes[label] = age in items
        except TypeError:
            outcomes[label] = "refused"
    assert outcomes == {"age first": True, "age last": "refused"}


def test_the_tree_compiles_to_sql_that_sqlite_runs():
    """This is the PySpark pattern in miniature: the host language builds the plan, and
    another engine (here SQLite) executes it."""
    where = (Col("age") > 21) & (Col("dept") == "a")
    assert run_in_sqlite(where, PEOPLE) == ["bo"]


@given(st.integers(min_value=0, max_value=60), st.sampled_from(["a", "b"]))
def test_the_two_back_ends_part_ways_where_their_type_rules_differ(threshold, dept):
    """One tree, two back ends: evaluated row by row in Python, or compiled to SQL and run by
    SQLite. Checking one against the other on many inputs is how DSL compilers are tested, and
    for numbers against numbers they agree. A number column against a string is where the two
    languages part: Python refuses to order an int and a str, while SQLite first converts a
    string that reads as a number to the kind of value the column is declared to hold (its
    type affinity)."""
    where = (Col("age") > threshold) & (Col("dept") == dept)
    assert [row["name"] for row in PEOPLE if where.evaluate(row)] == run_in_sqlite(where, PEOPLE)
    odd = Col("age") > "21"
    with pytest.raises(TypeError):
        [row["name"] for row in PEOPLE if odd.evaluate(row)]
    assert run_in_sqlite(odd, PEOPLE) == ["bo", "cy"]


def test_numpy_comparison_returns_an_array_of_bools():
    """numpy is the best-known embedded DSL of all: `>` on an array compares element by
    element and returns a new boolean array, not one bool."""
    ages = np.array([17, 34, 52])
    assert (ages > 21).tolist() == [False, True, True]


def test_numpy_refuses_the_truth_of_a_many_element_array():
    """Is an array that holds both True and False true? "any" and "all" give different answers,
    so numpy refuses to guess and raises. Use `.any()` or `.all()` to say which you mean."""
    ages = np.array([17, 34, 52])
    with pytest.raises(ValueError):
        bool(ages > 21)


def test_numpy_combines_conditions_with_ampersand():
    """`&` on boolean arrays is element-wise AND, the array version of `and`. The parentheses
    are required: `&` binds tighter than `>`."""
    ages = np.array([17, 34, 52])
    assert ((ages > 21) & (ages < 50)).tolist() == [False, True, False]


def test_forgetting_the_parentheses_turns_ampersand_into_a_chain():
    """Without parentheses `ages > 21 & ages < 50` parses as `ages > (21 & ages) < 50`, a
    chained comparison, whose hidden `and` asks for the truth of an array."""
    ages = np.array([17, 34, 52])
    with pytest.raises(ValueError):
        ages > 21 & ages < 50


def kernel(fn):
    """A toy version of `@triton.jit`: read the function's source and compile it into our own
    representation (here, the list of arithmetic operators) instead of running it."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    fn.binops = [type(node.op).__name__ for node in ast.walk(tree) if isinstance(node, ast.BinOp)]
    return fn


SAXPY_CALLS = []


@kernel
def saxpy(a, x, y):
    SAXPY_CALLS.append(1)
    return a * x + y


def test_a_jit_decorator_reads_the_function_instead_of_running_it():
    """A decorator receives the function object and may do anything with it. A DSL compiler
    such as Triton parses the body into its own IR and never runs it as Python. `ast.walk`
    visits the tree breadth-first, from the root down."""
    assert (saxpy.binops, len(SAXPY_CALLS)) == (["Add", "Mult"], 0)
