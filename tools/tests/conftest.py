"""Fixtures shared by the tools' tests. Test modules that build a smaller course of their own
(the checker's and the plugin's) define a `course` fixture that takes precedence in them."""

from __future__ import annotations

import sys
from pathlib import Path

# tools/ itself, so the runner's tests can import koanrunner.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from runner_support import course  # noqa: F401 - the runner tests' fake course
