"""SQL: a declarative language compiled into a plan.

A query says *what* rows you want, never *how* to find them. SQLite's query planner compiles
the statement into a physical plan, and `EXPLAIN QUERY PLAN` shows that plan. The wording of
plan lines changed over SQLite releases ("SCAN TABLE t" before 3.36, "SCAN t" after), so these
koans only look at the stable words.
"""

import sqlite3
from contextlib import closing

from hypothesis import given
from hypothesis import strategies as st


def staff_db():
    """A fresh in-memory database with 100 staff rows; close it when done."""
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE staff (name TEXT, dept TEXT, salary INTEGER)")
    db.executemany(
        "INSERT INTO staff VALUES (?, ?, ?)",
        [(f"n{i}", "ab"[i % 2], 10 * i) for i in range(100)],
    )
    return db


def plan(db, query):
    """The detail column of each EXPLAIN QUERY PLAN row, with the pre-3.36 word TABLE removed."""
    rows = db.execute("EXPLAIN QUERY PLAN " + query).fetchall()
    return [row[-1].replace(" TABLE ", " ") for row in rows]


def test_group_by_and_avg_are_primitives_of_the_language():
    """What a general-purpose language spells as a loop, a dict and a running sum, SQL states
    as GROUP BY and AVG. AVG yields a REAL even over INTEGER columns (NULL only when there is
    nothing to average), as SQL's own `typeof` confirms."""
    with closing(staff_db()) as db:
        rows = db.execute(
            "SELECT dept, AVG(salary), typeof(AVG(salary)) FROM staff WHERE salary < 40"
            " GROUP BY dept ORDER BY dept"
        ).fetchall()
        assert rows == [("a", 10.0, "real"), ("b", 20.0, "real")]


def test_without_an_index_the_plan_scans_the_whole_table():
    """With no index on `name`, the only way to find one row is to read every row: the plan
    says SCAN."""
    with closing(staff_db()) as db:
        detail = plan(db, "SELECT salary FROM staff WHERE name = 'n5'")[0]
        assert detail.split()[0] == "SCAN"


def test_after_create_index_the_same_query_searches_the_index():
    """The query text is unchanged, yet after CREATE INDEX the planner compiles it to a
    different program: a SEARCH through the index instead of a full SCAN."""
    with closing(staff_db()) as db:
        db.execute("CREATE INDEX staff_by_name ON staff (name)")
        detail = plan(db, "SELECT salary FROM staff WHERE name = 'n5'")[0]
        assert (detail.split()[0], "USING INDEX staff_by_name" in detail) == ("SEARCH", True)


def test_a_new_plan_gives_the_same_answer():
    """Because the language is declarative, the planner is free to change strategy: the
    answer must not depend on it. Same rows with and without the index."""
    with closing(staff_db()) as db:
        query = "SELECT salary FROM staff WHERE name = 'n5'"
        before = db.execute(query).fetchall()
        db.execute("CREATE INDEX staff_by_name ON staff (name)")
        after = db.execute(query).fetchall()
        assert (before == after, after) == (True, [(50,)])


def test_the_planner_chooses_the_join_order_not_the_query_text():
    """Relational algebra says a join gives the same rows in either order, for every query, so
    the planner may pick the order. Though the text names `big` first, SQLite loops over
    `small` outside and searches `big` through its index inside: only `big` has an index on
    the join column (both tables are empty; the names are just labels). A compiler handed the
    same join as two nested Python loops could not swap them without proving it safe."""
    with closing(sqlite3.connect(":memory:")) as db:
        db.execute("CREATE TABLE small (k INTEGER)")
        db.execute("CREATE TABLE big (k INTEGER)")
        db.execute("CREATE INDEX big_k ON big (k)")
        written_big_first = plan(db, "SELECT * FROM big JOIN small ON small.k = big.k")
        assert [d.split()[:2] for d in written_big_first] == [["SCAN", "small"], ["SEARCH", "big"]]


def test_null_is_not_equal_to_null_in_sql():
    """SQL has three-valued logic: a comparison with NULL is neither true nor false but
    NULL, which Python receives as None. Testing for NULL needs IS NULL."""
    with closing(sqlite3.connect(":memory:")) as db:
        assert db.execute("SELECT NULL = NULL, NULL IS NULL").fetchone() == (None, 1)


def test_aggregates_skip_nulls_but_count_star_does_not():
    """AVG and COUNT(column) ignore NULLs: the average of 10, NULL and 20 is 15.0, not 10.0.
    COUNT(*) counts rows, whatever they hold."""
    with closing(sqlite3.connect(":memory:")) as db:
        db.execute("CREATE TABLE t (x INTEGER)")
        db.executemany("INSERT INTO t VALUES (?)", [(10,), (None,), (20,)])
        assert db.execute("SELECT AVG(x), COUNT(x), COUNT(*) FROM t").fetchone() == (15.0, 2, 3)


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=10))
def test_parameters_keep_data_out_of_the_language(text):
    """A `?` placeholder is bound after the statement is compiled, so the value can never be
    parsed as SQL. Quotes, semicolons and `DROP TABLE` come back as the same string."""
    with closing(sqlite3.connect(":memory:")) as db:
        (echoed,) = db.execute("SELECT ?", (text,)).fetchone()
        assert (echoed == text) == True
