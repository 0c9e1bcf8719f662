"""The integrity checker's one engine, and the two kinds of variant it runs.

- ``engine``   findings (``Breach``, ``Report``), scratch courses, and ``run``: pytest in a fresh
               process over a set of files, every test's verdict back (koans and kata steps
               alike, from the plugins' ``report.user_properties``);
- ``probe``    the pytest plugin the engine loads into that process (and its xdist workers): a
               time limit per test and, where asked, which functions of a module a test called;
- ``koans``    the static pass over koans and answers (files, ASTs, lessons, hints, give-aways,
               coin flips);
- ``mutants``  the dynamic passes over koans: each koan fails on its blank, each answer passes,
               and each fill's plausible wrong values and listed misconceptions fail;
- ``surgery``  source surgery on a kata's module (a function replaced, or put back to a stub);
- ``katas``    the katas: files, stub, reference, wrong implementations, step order.

``tools/check.py`` and ``tools/katacheck.py`` are their command lines.
"""
