"""The learner's runner: ``python tools/koans.py [watch|hint|list|goto|skip|reset|kata ...]``."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

if __name__ == "__main__":
    try:
        from koanrunner.early import prestart

        prestart(sys.argv[1:])  # pytest warms up in the server while the rest loads
        from koanrunner.cli import main
    except KeyboardInterrupt:  # Ctrl-C while starting: nothing to save yet
        sys.exit(130)
    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:  # `koans.py | head`: nobody reads any more
        code = code or 1
    os._exit(int(code or 0))  # everything is saved and flushed: skip the interpreter's teardown
