"""``python -m scripts.sentences LANG``: one example of every kind of sentence for people, in a language.

For every variant: its name and rules, and for each kind of sentence that explains a move (each
template of its family, :func:`service.game.tactics.template_of`) the first move found that is said
with it, among the positions that games of the variant pass through (every position of a small
variant, in the order they are reached; a seeded sample of the others). What a reader of the
language checks a translation with, and what the tests render in every language.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator, Sequence

from service.game.exact import Values
from service.game.tables import table
from service.game.tactics import explain_move, template_of
from service.game.variants import VARIANTS, Move, State, Variant, reach
from service.game.words import Message, Plural, say
from service.language import LANGUAGES, words

#: How many positions of a large variant are sampled, from seeded random games.
SAMPLED = 3000


def positions(variant: Variant, sampled: int = SAMPLED) -> Iterator[State]:
    """The unfinished positions of a small variant, or a seeded sample of a large one's."""
    if table(variant.id).positions <= 20_000:
        yield from reach(variant.id).unfinished
        return
    generator = random.Random(variant.id)
    for _ in range(sampled):
        state = variant.start(generator.randrange(2))
        while True:
            yield state
            after, ended = variant.play(state, generator.choice(list(variant.moves(state))))
            if ended is not None:
                break
            state = after


def examples(variant: Variant, sampled: int = SAMPLED) -> dict[Message | Plural, tuple[State, int]]:
    """The first position and move (its index among the ranked moves) said with each template."""
    values = Values(variant, table(variant.id))
    found: dict[Message | Plural, tuple[State, int]] = {}
    for state in positions(variant, sampled):
        for index, move in enumerate(values.ranked(state)):
            template = template_of(variant, state, Move(move.cell, move.mark))
            found.setdefault(template, (state, index))
    return found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.sentences", description=__doc__.split("\n\n")[0])
    parser.add_argument("lang", choices=LANGUAGES)
    arguments = parser.parse_args(argv)
    catalogue = words(arguments.lang)
    for variant in VARIANTS.values():
        print(f"## {variant.id}: {say(catalogue, variant.name)}\n{say(catalogue, variant.rules)}\n")
        values = Values(variant, table(variant.id))
        for template, (state, index) in examples(variant).items():
            move = values.ranked(state)[index]
            _, reason = explain_move(
                variant, state, Move(move.cell, move.mark), move.score, move.plies, words=catalogue
            )
            key = template.text if isinstance(template, Message) else template.plural
            print(f"- [{template.context}] {key}\n  {reason}")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
