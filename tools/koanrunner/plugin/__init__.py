"""The koans' pytest plugin, one module per concern (as pytest's own ``_pytest/``):

- ``blanks``       ``__`` and ``___``, values that refuse every operation;
- ``sources``      koan files read through the course model: hints, misconceptions, alignment;
- ``current``      the koan running now and its last comparison;
- ``fills``        what is typed at a blank must be a value of the answer's type;
- ``guards``       nothing a fill does to the interpreter (builtins, exits, forks) counts;
- ``exact``        exception blanks demand the exact class ("too broad");
- ``verdicts``     classifying each koan's outcome into a learner-facing verdict;
- ``environment``  per-koan time limits, CUDA skips, the Hypothesis profile;
- ``summary``      the path: the first unsolved koan, a line per topic, the next step.

The course's root ``conftest.py`` hands off to this package; nothing else loads it.
"""

from __future__ import annotations

import math

import pytest

from .. import course as model
from .summary import SUMMARY, PathSummary

pytest_plugins = [
    "koanrunner.plugin.blanks",
    "koanrunner.plugin.fills",
    "koanrunner.plugin.guards",
    "koanrunner.plugin.verdicts",
    "koanrunner.plugin.environment",
]

PLUGIN = "koans"
HELP_RAW = "show pytest's own tracebacks instead of the learner-facing koan messages"
HELP_JSON = "write every koan's outcome, kind and message to this JSON file"
HELP_ALL = "plain pytest's report of every koan, instead of the path (the first unsolved koan)"
HELP_VALUES = "show a wrong value at the first wrong try (default: from the second; a first try is a prediction)"
HELP_TIMEOUT = "fail a koan that runs longer than this many seconds (0: never; POSIX only)"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup(PLUGIN, "python internals koans")
    group.addoption("--koans-raw", action="store_true", default=False, help=HELP_RAW)
    group.addoption("--koans-json", metavar="PATH", default=None, help=HELP_JSON)
    group.addoption("--koans-timeout", metavar="SECONDS", type=float, default=0.0, help=HELP_TIMEOUT)
    group.addoption("--koans-all", action="store_true", default=False, help=HELP_ALL)
    group.addoption("--koans-show-values", action="store_true", default=False, help=HELP_VALUES)


def pytest_configure(config: pytest.Config) -> None:
    limit = config.getoption("koans_timeout")
    if not math.isfinite(limit) or limit < 0:
        raise pytest.UsageError(f"--koans-timeout={limit:g}: give a number of seconds, "
                                "0 (never) or more, and finite")
    foreign = model.Course(config.rootpath).foreign_files() if (config.rootpath / "koans").is_dir() else []
    if foreign and not hasattr(config, "workerinput"):
        raise pytest.UsageError(model.foreign_message(foreign))
    config.pluginmanager.register(PathSummary(config), SUMMARY)
    from ..server import READ_AHEAD  # the runner's server reads ahead what a run will read
    from .sources import warm

    if warm not in READ_AHEAD:
        READ_AHEAD.append(warm)
