"""The learner's runner: ``python tools/koans.py [watch|hint|list|goto|skip|reset|kata ...]``."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

if __name__ == "__main__":
    try:
        from koanrunner.cli import main
    except KeyboardInterrupt:  # Ctrl-C while starting: nothing to save yet
        sys.exit(130)
    sys.exit(main())
