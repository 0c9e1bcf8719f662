"""The katas' integrity checker: proves each kata keeps its promises, or names each breach.

    python tools/katacheck.py                    # every kata under koans/katas/
    python tools/katacheck.py --kata 01_ieee754  # one kata (repeatable)

A kata is ``koans/katas/NN_name/`` (README.md, hints.toml, wrong.toml, test_steps.py and the stub
module the pair writes) with ``answers/katas/NN_name/`` (the same test_steps.py and the reference
module). It proves, and exits 1 on any breach:

- the files: the same steps in koans/ and answers/, byte for byte; one stub module and its
  reference, offering the same functions with the same parameters; both copies of the katas'
  conftest.py identical; every step has a lesson (docstring) and no koan blank; the README lists
  every step, in order; hints.toml hints every step and names only steps; wrong.toml parses and
  each entry names a function of the reference and a step;
- the stub fails every step (each run on its own), each on a NotImplementedError of the stub;
- the reference passes every step, on this Python;
- each wrong implementation (a function of the reference replaced, as listed in wrong.toml)
  passes every step before its ``step`` and fails that one;
- each step after the first needs the one before it: with what the step before first used put
  back to a stub, the step fails; or else a wrong implementation caught by the step before is
  caught by this step too.

``tools/check.py`` runs the same checks (``koanrunner.checking.katas.check_katas``) over the
whole course.
"""

from __future__ import annotations

import argparse

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # tools/ is on no path of its own
from koanrunner.checking.katas import check_katas


ROOT = Path(__file__).resolve().parents[1]
HELP_KATA = "check only this kata (a folder name under koans/katas/; repeatable)"
HELP_ROOT = "the course checkout (default: the folder above tools/)"
HELP_JOBS = "katas checked at once (default: the number of CPUs)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="tools/katacheck.py", description=__doc__.split("\n")[0])
    parser.add_argument("--kata", action="append", default=[], help=HELP_KATA)
    parser.add_argument("--root", type=Path, default=ROOT, help=HELP_ROOT)
    parser.add_argument("-j", "--jobs", type=int, default=None, help=HELP_JOBS)
    args = parser.parse_args(argv)
    started = time.monotonic()
    breaches, counts = check_katas(args.root, args.kata or None, args.jobs)
    for where, what, fix in breaches:
        print(f"BREACH {where}\n    {what}\n    fix: {fix}")
    python = f"{sys.version_info[0]}.{sys.version_info[1]}"
    print(f"katacheck on Python {python}: {counts['katas']} katas, {counts['steps']} steps; "
          f"stubs fail {counts['stub_steps']}, references pass {counts['reference_steps']}, "
          f"{counts['wrong']} wrong implementations caught at their step, "
          f"{counts['orderings']} step orders proven; {len(breaches)} breaches "
          f"({time.monotonic() - started:.0f} s)")
    return 1 if breaches else 0


if __name__ == "__main__":
    sys.exit(main())
