"""SQL: a declarative language compiled into a plan.

A query says *what* rows you want, never *how* to find them. SQLite's query planner compiles
the statement into a physical plan, and `EXPLAIN QUERY PLAN` shows that plan. The wording of
plan lines changed over SQLite releases (3.36 dropped the word TABLE after the verb), so these
koans only look at the stable words.
"""

import sqlite3
from contextlib import closing


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


def test_create_index_changes_the_plan_not_the_query():
    """With no index on `name`, the only way to find one row is to read every row. After
    CREATE INDEX the same query text compiles to a different plan, one that looks the name up
    in the sorted index and reads only the rows it points to; the language being declarative,
    which rows it returns cannot change. The first word of a plan line names the strategy."""
    with closing(staff_db()) as db:
        query = "SELECT salary FROM staff WHERE name = 'n5'"
        before = plan(db, query)[0]
        db.execute("CREATE INDEX staff_by_name ON staff (name)")
        after = plan(db, query)[0]
        assert (before.split()[0], after.split()[0], "USING INDEX staff_by_name" in after) == ("SCAN", "SEARCH", True)


def test_explain_lists_the_program_the_query_compiles_to():
    """EXPLAIN QUERY PLAN summarises the strategy. Plain EXPLAIN shows what SQLite actually
    runs: the statement compiled into a program for SQLite's own virtual machine, the VDBE, one
    row per instruction (address, opcode, operands), much like `dis` shows CPython's bytecode.
    Every program opens by jumping to its set-up code and ends its work with an instruction
    that stops the machine."""
    with closing(staff_db()) as db:
        program = db.execute("EXPLAIN SELECT salary FROM staff WHERE name = 'n5'").fetchall()
        opcodes = [row[1] for row in program]
        assert (opcodes[0], "Halt" in opcodes, "SCAN" in opcodes) == ("Init", True, False)


def test_the_planner_chooses_the_join_order_not_the_query_text():
    """Relational algebra says a join gives the same rows in either order, for every query, so
    the planner may pick the order. Only `big` has an index on the join column (both tables are
    empty; the names are just labels), and an index pays off in the inner loop, which looks
    rows up once per row of the outer one. A compiler handed the same join as two nested Python
    loops could not swap them without proving it safe."""
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
    """AVG and COUNT(column) ignore NULLs: NULL means 'unknown', and an unknown value can be
    neither summed nor counted. COUNT(*) counts rows, whatever they hold."""
    with closing(sqlite3.connect(":memory:")) as db:
        db.execute("CREATE TABLE t (x INTEGER)")
        db.executemany("INSERT INTO t VALUES (?)", [(10,), (None,), (20,)])
        assert db.execute("SELECT AVG(x), COUNT(x), COUNT(*) FROM t").fetchone() == (15.0, 2, 3)


def test_parameters_keep_data_out_of_the_language():
    """Text pasted into a statement is parsed as SQL: a quote in it ends the string literal and
    whatever follows becomes part of the query. A `?` placeholder is bound after the statement
    is compiled, so its value is only ever compared, never parsed. Both queries below look for
    a person with the same odd name."""
    with closing(sqlite3.connect(":memory:")) as db:
        db.execute("CREATE TABLE people (name TEXT)")
        db.executemany("INSERT INTO people VALUES (?)", [("ann",), ("bo",), ("cy",)])
        name = "x' OR '1'='1"
        pasted = db.execute(f"SELECT name FROM people WHERE name = '{name}'").fetchall()
        bound = db.execute("SELECT name FROM people WHERE name = ?", (name,)).fetchall()
        assert (len(pasted), len(bound)) == (3, 0)
