"""Print the per-source reply-extraction pass rates on the mail corpus (tests/corpus/).

Example:

    python benchmarks/corpus_report.py            # the table
    python benchmarks/corpus_report.py --details  # plus every failure and soft difference

The scoring is the one tests/test_mail_text.py asserts its floors with, loaded from
there so the two can never disagree.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent


def load_scoring() -> ModuleType:
    sys.path.insert(0, str(ROOT))
    path = ROOT / "tests" / "test_mail_text.py"
    spec = importlib.util.spec_from_file_location("pbem_mail_corpus_scoring", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load the scoring code from {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while loading
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--details", action="store_true", help="list failures and soft differences"
    )
    args = parser.parse_args(argv)
    scoring = load_scoring()
    started = time.perf_counter()
    outcomes = scoring.accuracy()
    elapsed = time.perf_counter() - started
    print(scoring.format_table(scoring.rate_table(outcomes)))
    print(
        f"\n{len(outcomes)} expectations in {elapsed:.2f} s. 'exact': as the source expects;"
        " 'pass': exact, or differing only in signature handling (the sources disagree there)."
    )
    if args.details:
        print()
        print(scoring.format_failures(outcomes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
