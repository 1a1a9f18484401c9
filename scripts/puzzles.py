"""``make puzzles``: every variant's puzzle book, written into the package, or checked (``--check``).

See :mod:`service.answers.books` for what a book file holds.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from service.answers.books import DATA, generate, path_of
from service.game.tables import table
from service.game.variants import VARIANTS


def _timed(variant_id: str) -> tuple[bytes, float]:
    """The fresh book file of a variant, and the seconds it took to compute."""
    started = time.monotonic()
    return generate(VARIANTS[variant_id]), time.monotonic() - started


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="make puzzles", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--check", action="store_true", help="check the shipped books instead of writing them"
    )
    parser.add_argument("variants", nargs="*", help=f"the variants (default: all): {', '.join(VARIANTS)}")
    arguments = parser.parse_args(argv)
    unknown = [name for name in arguments.variants if name not in VARIANTS]
    if unknown:
        parser.error(f"unknown variants: {', '.join(unknown)}")
    stale = []
    chosen = arguments.variants or list(VARIANTS)
    # The largest first, each in a process of its own, as many at once as the machine has cores.
    order = sorted(chosen, key=lambda name: -table(name).positions)
    with ProcessPoolExecutor(max_workers=min(len(order), os.cpu_count() or 1)) as pool:
        made = dict(zip(order, pool.map(_timed, order), strict=True))
    for variant_id in chosen:
        variant = VARIANTS[variant_id]
        (fresh, seconds), path = made[variant_id], path_of(variant)
        count = fresh.count(b"\n") - 1
        if not arguments.check:
            DATA.mkdir(exist_ok=True)
            path.write_bytes(fresh)
            print(f"{variant_id}: {count:,} puzzles, {len(fresh):,} bytes, in {seconds:.0f} s")
        elif not path.exists() or path.read_bytes() != fresh:
            stale.append(variant_id)
            print(f"{variant_id}: the shipped book is not what a fresh computation gives: run make puzzles")
        else:
            print(f"{variant_id}: {count:,} puzzles, as shipped (computed in {seconds:.0f} s)")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
