"""The words of the game's sentences, in any language: messages of a catalogue, and the names of cells,
lines, boards and players.

Every sentence for a person is a whole-sentence template of a gettext catalogue with named placeholders
(``"Takes {cell}"``), said in the language of a :data:`Words` (a :class:`gettext.NullTranslations`,
whose methods look a message up in a compiled catalogue and fall back to the English source; the
service's catalogues are in :mod:`service.language`). A message is written once, where it is used, as
a :class:`Message` (or a :class:`Plural`), with the context that tells the translator where it stands,
so that ``pybabel extract`` finds it; it is said with :func:`say`.

Names are messages too, one per thing named, never glued from fragments: each cell of a board of each
size (:data:`CELLS`), each line of each grid (:data:`LINES`), each board of a game on several boards
(:data:`BOARDS`) and each player (:data:`PLAYERS`), looked up by the geometry. A name comes in the
forms the sentences need, told apart by the message's context, since a language may inflect a noun
by its role or join it to a preposition where English does not (Portuguese *no canto*, German *dem
Eckfeld*): a cell is named as the thing taken (``cell``) and as the place where something happens
(``cell, where``); a board as the thing killed or handed over (``board``) and as what a cell or a line
is *of* (``board, of``); a player as who does something (``player``) and as who is given something
(``player, recipient``). In English each pair is the same words.
"""

from __future__ import annotations

from collections.abc import Sequence
from gettext import NullTranslations
from typing import NamedTuple, TypeAlias

#: A catalogue in one language: ``gettext``, ``ngettext``, ``pgettext`` and ``npgettext``.
Words: TypeAlias = NullTranslations
#: The source language, English: every message as it is written.
ENGLISH: Words = NullTranslations()


class Message(NamedTuple):
    """A message of the catalogue: its context (where it stands) and its English text, a template
    whose named placeholders (``{cell}``) a translation keeps."""

    context: str
    text: str


class Plural(NamedTuple):
    """A message whose words depend on a number: its context, and its English singular and plural."""

    context: str
    singular: str
    plural: str


def say(words: Words, message: Message, /, **values: object) -> str:
    """``message`` in the language of ``words``, its placeholders filled with ``values``."""
    return words.pgettext(message.context, message.text).format(**values)


def say_count(words: Words, message: Plural, count: int, /, **values: object) -> str:
    """``message`` in the language of ``words``, in the form for ``count``, its placeholders (``count``
    among them) filled."""
    text = words.npgettext(message.context, message.singular, message.plural, count)
    return text.format(**{"count": count, **values})


class Said(NamedTuple):
    """Something to say: a message and the values of its placeholders, said in any language with
    :meth:`to`, in English with ``str``. A value may itself be :class:`Said` (said in the same
    language), or a :class:`Listed` of them. Errors are made of these, so that a problem is said in the
    language its answer is in."""

    message: Message | Plural
    values: tuple[tuple[str, object], ...] = ()
    #: The number a :class:`Plural` is said for.
    number: int | None = None

    @classmethod
    def of(cls, message: Message | Plural, number: int | None = None, **values: object) -> Said:
        """``message`` with ``values`` (and the ``number`` a :class:`Plural` is said for)."""
        return cls(message, tuple(values.items()), number)

    def to(self, words: Words) -> str:
        """What is said, in the language of ``words``."""
        values = {name: render(value, words) for name, value in self.values}
        if isinstance(self.message, Plural):
            return say_count(words, self.message, self.number or 0, **values)
        return say(words, self.message, **values)

    def __str__(self) -> str:
        return self.to(ENGLISH)


class Listed(NamedTuple):
    """Things said in a list: joined as :func:`listed` joins names (``and``, or ``or`` when ``either``),
    or as clauses, one after another, separated by semicolons."""

    items: tuple[object, ...]
    either: bool = False
    clauses: bool = False


def render(value: object, words: Words) -> object:
    """``value`` as a placeholder takes it in the language of ``words``: what :class:`Said` or
    :class:`Listed` say, or the value itself."""
    if isinstance(value, Said):
        return value.to(words)
    if isinstance(value, Listed):
        items = [str(render(item, words)) for item in value.items]
        if value.clauses:
            return listed(words, items, style=_CLAUSES)
        return listed(words, items, either=value.either)
    return value


# --- lists -------------------------------------------------------------------------------------------

#: How a list is said, as the Unicode CLDR's list patterns do it: two items; then, for more, the
#: first two, each further one but the last, and the last.
_AND = (
    # TRANSLATORS: A list of two names of cells (each in the form the sentence needs).
    Message("list", "{first} and {second}"),
    # TRANSLATORS: The start of a list of three or more names: the first two.
    Message("list", "{first}, {second}"),
    # TRANSLATORS: A list of three or more names, grown by one that is not the last.
    Message("list, middle", "{first}, {second}"),
    # TRANSLATORS: A list of three or more names, ended by its last one.
    Message("list", "{first} and {last}"),
)
_OR = (
    # TRANSLATORS: Two names of cells, either of which may be chosen.
    Message("list, or", "{first} or {second}"),
    Message("list, or", "{first}, {second}"),
    Message("list, or, middle", "{first}, {second}"),
    Message("list, or", "{first} or {last}"),
)


_CLAUSES = (
    # TRANSLATORS: Two clauses of an error, one after the other ("cell 1 has 'Z'; cell 2 has 'Q'").
    Message("list, clauses", "{first}; {second}"),
    Message("list, clauses", "{first}; {second}"),
    Message("list, clauses, middle", "{first}; {second}"),
    Message("list, clauses", "{first}; {last}"),
)


def listed(
    words: Words, names: Sequence[str], *, either: bool = False, style: tuple[Message, ...] | None = None
) -> str:
    """``A``, ``A and B``, or ``A, B and C`` (``A, B or C`` when ``either``; another ``style`` of
    list if given), in the language of ``words``."""
    two, start, middle, end = style or (_OR if either else _AND)
    if len(names) == 1:
        return names[0]
    if len(names) == 2:
        return say(words, two, first=names[0], second=names[1])
    text = say(words, start, first=names[0], second=names[1])
    for name in names[2:-1]:
        text = say(words, middle, first=text, second=name)
    return say(words, end, first=text, last=names[-1])


# --- names --------------------------------------------------------------------------------------------

#: The cells of a board, row by row from the top-left, as the thing a move takes, by the board's size.
CELLS: dict[int, tuple[Message, ...]] = {
    3: (
        # TRANSLATORS: The name of a cell, as the thing a move takes or a list names ("Takes {cell}").
        Message("cell", "the top-left corner"),
        Message("cell", "the top edge"),
        Message("cell", "the top-right corner"),
        Message("cell", "the left edge"),
        Message("cell", "the center"),
        Message("cell", "the right edge"),
        Message("cell", "the bottom-left corner"),
        Message("cell", "the bottom edge"),
        Message("cell", "the bottom-right corner"),
    ),
    4: (
        Message("cell", "the top-left corner"),
        Message("cell", "the left cell of the top edge"),
        Message("cell", "the right cell of the top edge"),
        Message("cell", "the top-right corner"),
        Message("cell", "the upper cell of the left edge"),
        Message("cell", "the top-left center cell"),
        Message("cell", "the top-right center cell"),
        Message("cell", "the upper cell of the right edge"),
        Message("cell", "the lower cell of the left edge"),
        Message("cell", "the bottom-left center cell"),
        Message("cell", "the bottom-right center cell"),
        Message("cell", "the lower cell of the right edge"),
        Message("cell", "the bottom-left corner"),
        Message("cell", "the left cell of the bottom edge"),
        Message("cell", "the right cell of the bottom edge"),
        Message("cell", "the bottom-right corner"),
    ),
}

#: The cells of a board as the place where something happens ("threatens to win at {cell}"), in the
#: same order. English says them as :data:`CELLS` does; a language may join a preposition to them.
WHERE: dict[int, tuple[Message, ...]] = {
    3: (
        # TRANSLATORS: The name of a cell, as the place where something happens: it follows "at" or
        # "in" in the English sentences ("at {cell}"). A language that joins the preposition to the
        # noun, or inflects the noun after it, gives the whole phrase here, and leaves the preposition
        # out of those sentences: say which in the sentences' translations, consistently.
        Message("cell, where", "the top-left corner"),
        Message("cell, where", "the top edge"),
        Message("cell, where", "the top-right corner"),
        Message("cell, where", "the left edge"),
        Message("cell, where", "the center"),
        Message("cell, where", "the right edge"),
        Message("cell, where", "the bottom-left corner"),
        Message("cell, where", "the bottom edge"),
        Message("cell, where", "the bottom-right corner"),
    ),
    4: (
        Message("cell, where", "the top-left corner"),
        Message("cell, where", "the left cell of the top edge"),
        Message("cell, where", "the right cell of the top edge"),
        Message("cell, where", "the top-right corner"),
        Message("cell, where", "the upper cell of the left edge"),
        Message("cell, where", "the top-left center cell"),
        Message("cell, where", "the top-right center cell"),
        Message("cell, where", "the upper cell of the right edge"),
        Message("cell, where", "the lower cell of the left edge"),
        Message("cell, where", "the bottom-left center cell"),
        Message("cell, where", "the bottom-right center cell"),
        Message("cell, where", "the lower cell of the right edge"),
        Message("cell, where", "the bottom-left corner"),
        Message("cell, where", "the left cell of the bottom edge"),
        Message("cell, where", "the right cell of the bottom edge"),
        Message("cell, where", "the bottom-right corner"),
    ),
}

#: Every line of a grid by its cells, by the grid's size and the length of its lines. A name has no
#: article: the sentences give it one ("the {line}") or a possessor ("{side}'s {line}").
LINES: dict[tuple[int, int], dict[tuple[int, ...], Message]] = {
    (3, 3): {
        # TRANSLATORS: The name of a line, without an article: the sentences give it one ("the
        # {line}", "its {line}") or a possessor ("X's {line}").
        (0, 1, 2): Message("line", "top row"),
        (3, 4, 5): Message("line", "middle row"),
        (6, 7, 8): Message("line", "bottom row"),
        (0, 3, 6): Message("line", "left column"),
        (1, 4, 7): Message("line", "middle column"),
        (2, 5, 8): Message("line", "right column"),
        (0, 4, 8): Message("line", "diagonal from the top-left"),
        (2, 4, 6): Message("line", "diagonal from the top-right"),
    },
    (4, 4): {
        (0, 1, 2, 3): Message("line", "top row"),
        (4, 5, 6, 7): Message("line", "second row"),
        (8, 9, 10, 11): Message("line", "third row"),
        (12, 13, 14, 15): Message("line", "bottom row"),
        (0, 4, 8, 12): Message("line", "left column"),
        (1, 5, 9, 13): Message("line", "second column"),
        (2, 6, 10, 14): Message("line", "third column"),
        (3, 7, 11, 15): Message("line", "right column"),
        (0, 5, 10, 15): Message("line", "diagonal from the top-left"),
        (3, 6, 9, 12): Message("line", "diagonal from the top-right"),
    },
    (4, 3): {
        # TRANSLATORS: A line of three cells of a 4 × 4 board, part of a row, a column or a diagonal
        # of four ("left three of the top row": its three cells on the left), or a short diagonal of
        # three beside the long one. Without an article, like every name of a line.
        (0, 1, 2): Message("line", "left three of the top row"),
        (1, 2, 3): Message("line", "right three of the top row"),
        (4, 5, 6): Message("line", "left three of the second row"),
        (5, 6, 7): Message("line", "right three of the second row"),
        (8, 9, 10): Message("line", "left three of the third row"),
        (9, 10, 11): Message("line", "right three of the third row"),
        (12, 13, 14): Message("line", "left three of the bottom row"),
        (13, 14, 15): Message("line", "right three of the bottom row"),
        (0, 4, 8): Message("line", "upper three of the left column"),
        (4, 8, 12): Message("line", "lower three of the left column"),
        (1, 5, 9): Message("line", "upper three of the second column"),
        (5, 9, 13): Message("line", "lower three of the second column"),
        (2, 6, 10): Message("line", "upper three of the third column"),
        (6, 10, 14): Message("line", "lower three of the third column"),
        (3, 7, 11): Message("line", "upper three of the right column"),
        (7, 11, 15): Message("line", "lower three of the right column"),
        (0, 5, 10): Message("line", "upper three of the diagonal from the top-left"),
        (1, 6, 11): Message("line", "short diagonal above the diagonal from the top-left"),
        (4, 9, 14): Message("line", "short diagonal below the diagonal from the top-left"),
        (5, 10, 15): Message("line", "lower three of the diagonal from the top-left"),
        (2, 5, 8): Message("line", "short diagonal above the diagonal from the top-right"),
        (3, 6, 9): Message("line", "upper three of the diagonal from the top-right"),
        (6, 9, 12): Message("line", "lower three of the diagonal from the top-right"),
        (7, 10, 13): Message("line", "short diagonal below the diagonal from the top-right"),
    },
}


class BoardNames(NamedTuple):
    """A board of a game on several boards, as the thing a move kills or hands over, and as what a
    cell or a line is of."""

    board: Message
    of: Message


#: The boards of a game on several boards, by how many there are: written one after another and drawn
#: side by side, from the left.
BOARDS: dict[int, tuple[BoardNames, ...]] = {
    2: (
        BoardNames(
            # TRANSLATORS: A board of Notakto on two or three boards, drawn side by side, as the thing
            # a move kills or hands over ("Kills {board}").
            Message("board", "the left board"),
            # TRANSLATORS: A board as what a cell or a line is of: "the center of the left board".
            Message("board, of", "of the left board"),
        ),
        BoardNames(Message("board", "the right board"), Message("board, of", "of the right board")),
    ),
    3: (
        BoardNames(Message("board", "the left board"), Message("board, of", "of the left board")),
        BoardNames(Message("board", "the middle board"), Message("board, of", "of the middle board")),
        BoardNames(Message("board", "the right board"), Message("board, of", "of the right board")),
    ),
}


class PlayerNames(NamedTuple):
    """A player of a game where the players are not their marks, as who does something and as who
    is given something."""

    player: Message
    recipient: Message


#: The players of wild tic-tac-toe and Notakto, where both may place either mark, or both place X:
#: the first player and the second, by the variant's side names.
PLAYERS: dict[str, PlayerNames] = {
    "first": PlayerNames(
        # TRANSLATORS: The player who moved first, as who does something ("{player} wins").
        Message("player", "the first player"),
        # TRANSLATORS: The player who moved first, as who is given something or let do something
        # ("lets {player} complete a line", "Leaves {player} only cells ...", "hands {player} the
        # last live board").
        Message("player, recipient", "the first player"),
    ),
    "second": PlayerNames(
        Message("player", "the second player"), Message("player, recipient", "the second player")
    ),
}
