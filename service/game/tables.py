"""The shipped tables of exact values, one file per variant, as endgame tablebases are shipped.

A table holds an :class:`~.exact.Entry` for every class of alike unfinished positions that a game of
the variant can reach (the keys of :func:`~.exact.key_of`). Its file, ``data/<id>.table`` in this
package, is:

* a header of 24 bytes, little-endian: :data:`MAGIC` (8 bytes), the number of entries ``n`` and a
  check of the variant's rules (:func:`check_of`), 4 bytes each, and the number of unfinished
  positions the entries stand for (:func:`positions`), 8 bytes;
* the ``n`` keys, ascending, 4 bytes each, little-endian;
* ``n`` bytes of values, one per key: ``(score + 1) << 5 | plies``;
* ``n`` bytes of mistakes, one per key.

A :class:`Table` memory-maps its file read-only, so that every worker of a machine shares its pages,
and finds a key by bisection. :func:`generate` solves a variant from the empty board and renders its
table; ``make tables`` writes every file and ``make tables-check`` (run in CI) checks that each
shipped file is what a fresh generation gives.
"""

from __future__ import annotations

import argparse
import hashlib
import mmap
import struct
import sys
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cache
from math import factorial
from pathlib import Path

from .exact import Entry, Values, permutations
from .variants import O_MARK, VARIANTS, Variant

MAGIC = b"tttable1"
HEADER = struct.Struct("<8sIIQ")
#: Where the shipped tables are, inside the package.
DATA = Path(__file__).with_name("data")
#: Every variant with a shipped table: all of them.
TABLED = tuple(VARIANTS.values())


class TableError(Exception):
    """A table file that is missing, or not the table of its variant."""


def check_of(variant: Variant) -> int:
    """A number that changes when the rules that the table depends on change."""
    rules = f"{variant.size}/{variant.line}/{variant.boards}/{variant.marks}/{variant.misere}"
    return int.from_bytes(hashlib.sha256(rules.encode()).digest()[:4], "little")


def path_of(variant: Variant) -> Path:
    """The shipped file of ``variant``'s table."""
    return DATA / f"{variant.id}.table"


class Table(Mapping[int, Entry]):
    """The table of one variant, read from its file (memory-mapped): a mapping from keys to entries."""

    def __init__(self, variant: Variant, path: Path | None = None) -> None:
        self.variant = variant
        path = path or path_of(variant)
        try:
            with path.open("rb") as file:
                self._map = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError) as error:
            raise TableError(f"the table of {variant.id} cannot be read: {error}") from error
        if len(self._map) < HEADER.size:
            raise TableError(f"{path.name} is not the table of {variant.id}; run make tables")
        magic, count, check, self.positions = HEADER.unpack_from(self._map)
        if magic != MAGIC or check != check_of(variant) or len(self._map) != HEADER.size + 6 * count:
            raise TableError(f"{path.name} is not the table of {variant.id}; run make tables")
        start = HEADER.size
        self.codes: Sequence[int] = _words(memoryview(self._map)[start : start + 4 * count])
        self.value_bytes = memoryview(self._map)[start + 4 * count : start + 5 * count]
        self.mistake_bytes = memoryview(self._map)[start + 5 * count :]

    def __getitem__(self, key: int) -> Entry:
        index = bisect_left(self.codes, key)
        if index == len(self.codes) or self.codes[index] != key:
            raise KeyError(key)
        score, plies = _VALUES[self.value_bytes[index]]
        return Entry(score, plies, self.mistake_bytes[index])

    def __len__(self) -> int:
        return len(self.codes)

    def __iter__(self) -> Iterator[int]:
        return iter(self.codes)


def _words(raw: memoryview) -> Sequence[int]:
    """Little-endian 4-byte words as a sequence of numbers, without a copy where the machine allows."""
    if sys.byteorder == "little":
        return raw.cast("I")
    words = array("I", raw)
    words.byteswap()
    return words


#: The value ``(score, plies)`` of each byte of values.
_VALUES = tuple(((byte >> 5) - 1, byte & 31) for byte in range(256))


@cache
def table(variant_id: str) -> Table:
    """The shipped table of the variant ``variant_id``, read once per process."""
    return Table(VARIANTS[variant_id])


def generate(variant: Variant) -> bytes:
    """The table of ``variant``, solved from the empty board with either mark first."""
    values = Values(variant)
    values.value(variant.start())
    if variant.marks == "own":
        values.value(variant.start(O_MARK))
    keys = sorted(values.memo)
    entries = [values.memo[key] for key in keys]
    words = array("I", keys)
    if sys.byteorder != "little":
        words.byteswap()
    return b"".join(
        (
            HEADER.pack(MAGIC, len(keys), check_of(variant), positions(variant, keys)),
            words.tobytes(),
            bytes((score + 1) << 5 | plies for score, plies, _ in entries),
            bytes(mistakes for _, _, mistakes in entries),
        )
    )


def positions(variant: Variant, keys: Iterable[int]) -> int:
    """How many unfinished positions (a board and its side to move, either side starting where that
    applies) the classes of ``keys`` stand for: the size of each class, summed."""
    images = permutations(variant.size)
    width = variant.board_cells
    low = (1 << width) - 1
    if variant.marks == "x_only":
        dead = _dead_boards(variant)

        def arrangements(key: int) -> int:
            classes = [key >> board * (width + 1) & (low << 1 | 1) for board in range(variant.boards)]
            count = factorial(variant.boards)
            for same in Counter(classes).values():
                count //= factorial(same)
            for found in classes:
                count *= dead if found >> width else len({p[found] for p in images})
            return count

        return sum(arrangements(key) for key in keys)
    if variant.marks == "either":
        return sum(
            len(
                {p[key >> width] << width | p[key & low] for p in images}
                | {p[key & low] << width | p[key >> width] for p in images}
            )
            for key in keys
        )
    # A pair of (the mover's marks, the other's) stands for two positions: X to move, and O to move.
    return sum(2 * len({p[key >> width] << width | p[key & low] for p in images}) for key in keys)


def _dead_boards(variant: Variant) -> int:
    """How many boards of X alone a game of ``variant`` can kill: every line on them through one cell."""
    lines = variant.grid.line_masks
    count = 0
    for cells in range(1 << variant.board_cells):
        lined = [mask for mask in lines if cells & mask == mask]
        common = variant.grid.full
        for mask in lined:
            common &= mask
        count += bool(lined) and bool(common)
    return count


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m service.game.tables [--check] [ID ...]``: write (or check) the shipped tables."""
    parser = argparse.ArgumentParser(prog="python -m service.game.tables", description=main.__doc__)
    parser.add_argument("--check", action="store_true", help="compare with the shipped files, write nothing")
    parser.add_argument("ids", nargs="*", metavar="ID", help="variants (default: every tabled variant)")
    args = parser.parse_args(argv)
    chosen = [VARIANTS[i] for i in args.ids] if args.ids else list(TABLED)
    stale = []
    for variant in chosen:
        fresh = generate(variant)
        path = path_of(variant)
        digest = hashlib.sha256(fresh).hexdigest()[:16]
        _, count, _, stands_for = HEADER.unpack_from(fresh)
        size = f"{count:,} classes of {stands_for:,} unfinished positions"
        if args.check:
            same = path.is_file() and path.read_bytes() == fresh
            stale += [] if same else [variant.id]
            print(f"{variant.id}: {size}, sha256 {digest}, {'same' if same else 'DIFFERENT'}")
        else:
            DATA.mkdir(exist_ok=True)
            path.write_bytes(fresh)
            print(f"{variant.id}: {size}, {len(fresh):,} bytes, sha256 {digest}")
    if stale:
        print(f"stale tables: {', '.join(stale)}; run make tables", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
