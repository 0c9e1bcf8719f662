"""Fixtures shared by the tools' tests. Test modules that build a smaller course of their own
(the checker's and the plugin's) define a `course` fixture that takes precedence in them."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

# tools/ itself, so the runner's tests can import koanrunner.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# The runners these tests start must take Ctrl-C as they do at a terminal. A process started
# where SIGINT is ignored (a background job of a script, some CI shells) hands that on to every
# process it starts, and Python then installs no KeyboardInterrupt at all; a handler, unlike an
# ignored signal, is not inherited, so with this one the runners start with the default.
if hasattr(signal, "SIGINT") and signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

from runner_support import course  # noqa: F401 - the runner tests' fake course
