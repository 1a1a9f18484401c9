"""The words of the browser game at ``/play``, in any language the service speaks.

Every sentence of the page for people is a message of the service's one catalogue
(:mod:`service.language`), written here once in English as a :class:`~service.game.words.Message` (or
a :class:`~service.game.words.Plural`) with the context ``page`` (``page, <what>`` where it helps), a
whole sentence with named placeholders, so that ``make messages`` extracts it beside the engine's
sentences and the translators translate both in one ``.po`` per language.

The page reaches them two ways, both rendered on the server, once per language:

- the HTML (``static/play.html``) is a template whose ``{{name}}`` placeholders :func:`rendered` fills
  from :data:`HTML`: each a message said in the page's language and escaped (a translation is text),
  its own placeholders filled with HTML where the sentence holds markup (a key: ``<kbd>``), and a few
  pieces built from the service's own lists (the variants, the levels' ratings, the languages);
- the script's own sentences (``static/play.js``) travel in the page as data, not code: a JSON object
  in ``<script type="application/json" id="page-words">`` (:func:`script_words`), which the script
  reads at start and says with ``say(key, values)``, ``sayCount(key, count, values)`` (a
  :class:`~service.game.words.Plural` comes as its forms in the catalogue's order, which for the
  catalogues Babel writes is the order of the language's CLDR plural categories, so that the script
  picks one with ``Intl.PluralRules``) and ``named(family, id, values)`` (a family of messages by the
  id of what they name: a level, a theme, a side, a board).

The English page says exactly what the page said before it spoke other languages.
"""

from __future__ import annotations

import html
import itertools
import json
import re
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType
from typing import NamedTuple, TypeAlias

from ..game.levels import LADDERS
from ..game.levels import NAMES as LEVEL_NAMES
from ..game.variants import STANDARD, VARIANTS
from ..game.words import Message, Plural, Words, say
from ..game.words import listed as spoken_list
from ..language import LANGUAGES, NAMES, words

# --- what the HTML and the script say -----------------------------------------------------------------


class Markup(str):
    """HTML to put into a message as it is: the message's own text is escaped, this is not."""

    __slots__ = ()


class Element(NamedTuple):
    """An element around a value in a message: a key (``<kbd>``), a span that the script fills."""

    tag: str
    text: Value
    attributes: str = ""


class Said(NamedTuple):
    """A message with the values of its placeholders: text, numbers, messages said in the same
    language, elements, other messages with values of their own, or text made in the language."""

    message: Message
    values: Mapping[str, Value] = MappingProxyType({})


Value: TypeAlias = "str | int | Message | Said | Element | Markup | Callable[[Words], str]"
#: What the script says: a sentence, a sentence by a number, or a family of sentences by an id.
Entry: TypeAlias = "Message | Plural | Mapping[str, Message]"


def _key(name: str | Message) -> Element:
    """A key of the keyboard, as the page shows one: a letter, or a key's name in the language."""
    return Element("kbd", name)


# --- names ---------------------------------------------------------------------------------------------

#: The levels and the random player, in running text ("between easy (181) and medium (316)"), by id.
LEVEL_WORDS: dict[str, Message] = {
    # TRANSLATORS: The engine's levels and the random player as a sentence of the game page names them
    # ("250: between easy (181) and medium (316)", "the engine played like: medium (≈ 316)"), and as
    # the marks of the rating slider. Lower case where the language allows it.
    "random": Message("page, level", "random"),
    "beginner": Message("page, level", "beginner"),
    "easy": Message("page, level", "easy"),
    "medium": Message("page, level", "medium"),
    "hard": Message("page, level", "hard"),
    "perfect": Message("page, level", "perfect"),
}

#: The levels as the level menu offers them, by id.
LEVEL_OPTIONS: dict[str, Message] = {
    # TRANSLATORS: The engine's levels in the menu "Engine level" of the game page, weakest first. A
    # sentence names the level chosen as the menu does: "Level changed to {level}: ...".
    "beginner": Message("page, level menu", "Beginner"),
    "easy": Message("page, level menu", "Easy"),
    "medium": Message("page, level menu", "Medium"),
    "hard": Message("page, level menu", "Hard"),
    "perfect": Message("page, level menu", "Perfect"),
}

#: A puzzle's themes in running text ("Themes: fork, block."), by tag.
THEME_WORDS: dict[str, Message] = {
    # TRANSLATORS: The themes of a puzzle (the tactics of its solution), as a sentence of the game
    # page lists them: "Themes: {themes}.", "No puzzle matches these filters (theme {theme}, ...)".
    "win": Message("page, theme", "win"),
    "block": Message("page, theme", "block"),
    "fork": Message("page, theme", "fork"),
    "threat": Message("page, theme", "threat"),
    "block_fork": Message("page, theme", "stop a fork"),
    "lose": Message("page, theme", "lose"),
    "squeeze": Message("page, theme", "squeeze"),
    "avoid": Message("page, theme", "avoid a line"),
    "gift": Message("page, theme", "gift a line"),
    "live": Message("page, theme", "keep a board live"),
    "kill": Message("page, theme", "kill a board"),
    "hand_over": Message("page, theme", "hand over the last board"),
}

#: A puzzle's themes as the menu "Theme" offers them, by tag.
THEME_OPTIONS: dict[str, Message] = {
    # TRANSLATORS: The themes of the puzzles in the menu "Theme" of the game page: what the solution
    # of a puzzle does.
    "win": Message("page, theme menu", "Win: complete a line"),
    "block": Message("page, theme menu", "Block a line"),
    "fork": Message("page, theme menu", "Fork: two threats"),
    "threat": Message("page, theme menu", "Threat"),
    "block_fork": Message("page, theme menu", "Stop a fork"),
    "lose": Message("page, theme menu", "Lose: complete the last line"),
    "squeeze": Message("page, theme menu", "Squeeze: leave only losing moves"),
    "avoid": Message("page, theme menu", "Avoid a line"),
    "gift": Message("page, theme menu", "Gift: leave a line to complete"),
    "live": Message("page, theme menu", "Keep a board live"),
    "kill": Message("page, theme menu", "Kill a board"),
    "hand_over": Message("page, theme menu", "Hand over the last live board"),
}
#: The themes the menu offers before the service has listed the variants: the standard game's.
STANDARD_THEMES = ("win", "block", "fork", "threat", "block_fork")

# TRANSLATORS: A cell of the game page's board, by its number from 1 (row by row from the top-left,
# as keys 1-9 play them): "cell 5". It stands inside sentences and labels ("The engine played {cell}:
# ...", "{cell}, empty").
CELL = Message("page, cell", "cell {number}")
# TRANSLATORS: A cell of the game page's board by its number from 1, at the start of a sentence or a
# list item ("Cell 5 (best): {reason}").
CELL_START = Message("page, cell, start", "Cell {number}")
#: A cell of Notakto's boards drawn side by side, by the board: inside a sentence.
CELL_ON_BOARD: dict[str, Message] = {
    # TRANSLATORS: A cell of Notakto on two or three boards drawn side by side, by its number from 1 on
    # its board and by the board: "cell 5 of the left board". Inside a sentence or a label.
    "left": Message("page, cell", "cell {number} of the left board"),
    "middle": Message("page, cell", "cell {number} of the middle board"),
    "right": Message("page, cell", "cell {number} of the right board"),
}
#: The same at the start of a sentence or a list item.
CELL_ON_BOARD_START: dict[str, Message] = {
    # TRANSLATORS: The same cell of Notakto's boards at the start of a sentence or a list item: "Cell 5
    # of the left board (best): {reason}".
    "left": Message("page, cell, start", "Cell {number} of the left board"),
    "middle": Message("page, cell, start", "Cell {number} of the middle board"),
    "right": Message("page, cell, start", "Cell {number} of the right board"),
}
#: A line of Notakto's boards, by the board.
LINE_ON_BOARD: dict[str, Message] = {
    # TRANSLATORS: A line of Notakto's boards drawn side by side: {cells} is its cells' numbers on
    # its board joined by hyphens ("1-5-9"): "1-5-9 of the left board".
    "left": Message("page, line", "{cells} of the left board"),
    "middle": Message("page, line", "{cells} of the middle board"),
    "right": Message("page, line", "{cells} of the right board"),
}

# --- lists ---------------------------------------------------------------------------------------------

# TRANSLATORS: A list of the game page without a conjunction, grown item by item: cells' numbers
# ("1, 5, 9"), the parts of a side's summary in a game's review. {first} is the list so far, {next}
# the next item.
LIST = Message("page, list", "{first}, {next}")
#: A list with "and", as the Unicode CLDR's list patterns say one: two items; then, for more, the
#: first two, each further one but the last, and the last.
LIST_AND = (
    # TRANSLATORS: A list of two items on the game page ("Tic-tac-toe and Misère tic-tac-toe": names of
    # variants, or ratings with their levels).
    Message("page, list", "{first} and {second}"),
    # TRANSLATORS: The start of a list of three or more items on the game page: the first two.
    Message("page, list, start", "{first}, {second}"),
    # TRANSLATORS: A list of three or more items on the game page, grown by one that is not the last.
    Message("page, list, middle", "{first}, {second}"),
    # TRANSLATORS: A list of three or more items on the game page, ended by its last one.
    Message("page, list", "{first} and {last}"),
)
# TRANSLATORS: Two sentences of the game page, one after the other, as one text: a result and its
# lines ("You win with X! Winning line: 1-2-3."), a variant's rules and what to do next.
SENTENCES = Message("page, sentences", "{first} {next}")


def listed(words: Words, items: Sequence[str]) -> str:
    """``A``, ``A and B`` or ``A, B and C`` in the language of ``words``, as the script's ``joined``
    (nothing for no items), with the page's own list patterns."""
    return spoken_list(words, items, style=LIST_AND) if items else ""


# --- the ratings ----------------------------------------------------------------------------------------

# TRANSLATORS: The rating chosen on the slider of the game page, said beside it, where it is a
# calibrated player's: "493: perfect". {level} is a level or "random".
RATING_EXACT = Message("page, rating", "{rating}: {level}")
# TRANSLATORS: The rating chosen on the slider of the game page, said beside it, between two calibrated
# players: "250: between easy (181) and medium (316)". {lower} and {upper} are levels or "random",
# {lower_rating} and {upper_rating} their ratings.
RATING_BETWEEN = Message(
    "page, rating", "{rating}: between {lower} ({lower_rating}) and {upper} ({upper_rating})"
)
# TRANSLATORS: A rating of a calibrated player (a level) inside a sentence of the game page: "Rating
# changed to 316 (medium): ...".
RATING_PHRASE_EXACT = Message("page, rating", "{rating} ({level})")
# TRANSLATORS: A rating between two levels inside a sentence of the game page: "Rating changed to 400
# (between hard and perfect): ...".
RATING_PHRASE_BETWEEN = Message("page, rating", "{rating} (between {lower} and {upper})")
# TRANSLATORS: The puzzles' rating scale of a variant, item of a list: the random player's rating.
SCALE_RANDOM = Message("page, scale", "{rating} (even a random player)")
# TRANSLATORS: The puzzles' rating scale of a variant, item of a list: a level's rating ("94 (beginner)").
SCALE_LEVEL = Message("page, scale", "{rating} ({level})")
# TRANSLATORS: The puzzles' rating scale of a variant, item of a list: perfect play's rating, the top.
SCALE_PERFECT = Message("page, scale", "{rating} (only perfect play)")
# TRANSLATORS: The puzzles' rating scale of the variant chosen, under the puzzles of the game page:
# "In Tic-tac-toe, from 0 to 493: 0 (even a random player), 94 (beginner), ... and 493 (only perfect
# play)." {variant} is the variant's name, {max} the top of its scale, {scale} the list.
PUZZLE_SCALE = Message("page, scale", "In {variant}, from 0 to {max}: {scale}.")

# --- buttons and what names them -------------------------------------------------------------------------

# TRANSLATORS: The button of the game page that starts a game; sentences name it ("Press {button} to
# start.").
NEW_GAME = Message("page, button", "New game")
# TRANSLATORS: The button of the game page that shows every move's value.
HINT = Message("page, button", "Hint")
# TRANSLATORS: The button of the game page that asks for a puzzle, before the first; once a puzzle is
# shown it reads "Next puzzle". Sentences name it as it reads ("then press {button}").
GET_PUZZLE = Message("page, button", "Get a puzzle")
# TRANSLATORS: The button of the game page that asks for a puzzle, once one is shown.
NEXT_PUZZLE = Message("page, button", "Next puzzle")
# TRANSLATORS: The radio button of the game page that sets the engine's strength by a rating; the help
# text names it.
BY_RATING = Message("page", "By rating")
# TRANSLATORS: What the game page says before the first game, and after a variant's rules when one is
# chosen. {button} is the button "New game".
PRESS_NEW_GAME = Message("page, status", "Press {button} to start.")
# TRANSLATORS: Said beside "By rating" while the page asks the service which variants are rated.
RATINGS_CHECKING = Message("page, rating", "Checking which variants ratings are calibrated for…")
# TRANSLATORS: Said in the puzzles of the game page while it asks the service which variants have them.
PUZZLES_CHECKING = Message("page, puzzles", "Checking which variants have puzzles…")

# TRANSLATORS: The label of a cell of a board for screen readers: {cell} is its name ("cell 5").
CELL_EMPTY = Message("page, cell label", "{cell}, empty")
# TRANSLATORS: The first entry of the menu "Theme" of the puzzles: any theme.
THEME_ANY = Message("page, theme menu", "Any")

#: The standard game's calibrated players and their ratings, weakest first, which the page shows
#: until the service has listed the variants: the random player's, the levels'.
STANDARD_RATINGS: dict[str, int] = dict(LADDERS[STANDARD.id].ratings or dict.fromkeys(LEVEL_NAMES, 0))


# --- the script's sentences --------------------------------------------------------------------------------

#: What ``play.js`` says, by the key it says it with.
SCRIPT: dict[str, Entry] = {
    # TRANSLATORS: An error of the game page. {button} is the button that tries again ("New game",
    # "Get a puzzle" or "Next puzzle"), as it reads.
    "error-unreachable": Message(
        "page, error", "Cannot reach the service. Check the connection and press {button} to try again."
    ),
    # TRANSLATORS: What an error of the service is, where it says nothing more: its HTTP status code.
    "error-http": Message("page, error", "HTTP {status}"),
    # TRANSLATORS: An error of the game page: {detail} is the service's own words (a sentence), or
    # "HTTP {status}".
    "error-answered": Message("page, error", "The service answered with an error: {detail}"),
    "cell": CELL,
    "cell-start": CELL_START,
    "cell-on-board": CELL_ON_BOARD,
    "cell-on-board-start": CELL_ON_BOARD_START,
    "line-on-board": LINE_ON_BOARD,
    "list": LIST,
    "list-two": LIST_AND[0],
    "list-start": LIST_AND[1],
    "list-middle": LIST_AND[2],
    "list-end": LIST_AND[3],
    "sentences": SENTENCES,
    "level": LEVEL_WORDS,
    "theme": THEME_WORDS,
    "theme-option": THEME_OPTIONS,
    "rules": {variant.id: variant.rules for variant in VARIANTS.values()},
    "rating-exact": RATING_EXACT,
    "rating-between": RATING_BETWEEN,
    "rating-phrase-exact": RATING_PHRASE_EXACT,
    "rating-phrase-between": RATING_PHRASE_BETWEEN,
    # TRANSLATORS: The level a side of a reviewed game played like, with its rating where the variant's
    # levels are calibrated: "medium (≈ 316)". {level} is a level in lower case.
    "played-like": Message("page, review", "{level} (≈ {rating})"),
    # TRANSLATORS: What a side of a reviewed game that made no move played like: "You (O) made no move".
    "no-move": Message("page, review", "no move"),
    # TRANSLATORS: The engine's move, said after it: {cell} is the cell it took ("cell 5"), {reason} the
    # engine's own sentence about it.
    "engine-played": Message("page, status", "The engine played {cell}: {reason}"),
    # TRANSLATORS: The engine's move in wild tic-tac-toe, where a move places X or O: {mark} is the mark.
    "engine-played-mark": Message("page, status", "The engine played {mark} in {cell}: {reason}"),
    # TRANSLATORS: A short tag beside a cell of the finished game's line (hidden from screen readers,
    # which hear the cell's whole label): the line is the person's.
    "tag-your-line": Message("page, tag", "your line"),
    # TRANSLATORS: A short tag beside a cell of the finished game's line: the line is the engine's.
    "tag-engine-line": Message("page, tag", "engine's line"),
    # TRANSLATORS: A short tag beside a cell of a line in Notakto, which kills its board.
    "tag-line": Message("page, tag", "line"),
    "cell-empty": CELL_EMPTY,
    # TRANSLATORS: The label of a cell of a board for screen readers: {mark} is the mark in it, X or O.
    "cell-mark": Message("page, cell label", "{cell}, {mark}"),
    # TRANSLATORS: The label of an empty cell of a dead board of Notakto (a board with three in a row).
    "cell-empty-dead": Message("page, cell label", "{cell}, empty, dead board"),
    # TRANSLATORS: The label of a marked cell of a dead board of Notakto.
    "cell-mark-dead": Message("page, cell label", "{cell}, {mark}, dead board"),
    # TRANSLATORS: The label of a cell of a line of Notakto, which kills its board.
    "cell-notakto-line": Message("page, cell label", "{cell}, {mark}, on a line: its board is dead"),
    # TRANSLATORS: The label of a cell of the line that won the game for the person.
    "cell-your-winning-line": Message("page, cell label", "{cell}, {mark}, your winning line"),
    # TRANSLATORS: The label of a cell of the line that lost the game for the person (misère).
    "cell-your-losing-line": Message("page, cell label", "{cell}, {mark}, your losing line"),
    # TRANSLATORS: The label of a cell of the line that won the game for the engine.
    "cell-engine-winning-line": Message("page, cell label", "{cell}, {mark}, the engine's winning line"),
    # TRANSLATORS: The label of a cell of the line that lost the game for the engine (misère).
    "cell-engine-losing-line": Message("page, cell label", "{cell}, {mark}, the engine's losing line"),
    "board-state": {
        # TRANSLATORS: Notakto on one board: whether it is live or dead (has three in a row). A
        # sentence of its own once "{states}." ends it.
        "only-live": Message("page, boards", "Only board: live"),
        "only-dead": Message("page, boards", "Only board: dead"),
        # TRANSLATORS: Notakto on two or three boards: whether each is live or dead, the left one
        # first, at the start of the sentence; the others follow in "{first}; {next}".
        "left-live": Message("page, boards", "Left board: live"),
        "left-dead": Message("page, boards", "Left board: dead"),
        "middle-live": Message("page, boards", "middle board: live"),
        "middle-dead": Message("page, boards", "middle board: dead"),
        "right-live": Message("page, boards", "right board: live"),
        "right-dead": Message("page, boards", "right board: dead"),
    },
    # TRANSLATORS: The boards of Notakto and whether each is live or dead, one after another: {first}
    # is those so far, {next} the next one ("Left board: live; right board: dead").
    "board-states": Message("page, boards", "{first}; {next}"),
    # TRANSLATORS: The end of the sentence about Notakto's boards: {states} is the list.
    "board-states-end": Message("page, boards", "{states}."),
    "ratings-checking": RATINGS_CHECKING,
    # TRANSLATORS: Said beside "By rating" when the page could not ask the service which variants are
    # rated.
    "ratings-failed": Message(
        "page, rating",
        "Ratings are off: the service's list of variants could not be loaded. Levels play in every variant.",
    ),
    # TRANSLATORS: Said beside "By rating" when the service refused a rating in a variant listed as
    # rated. {variant} is the variant's name.
    "ratings-refused": Message(
        "page, rating", "Ratings are off in {variant}: the service did not accept one there."
    ),
    # TRANSLATORS: Said beside "By rating" in a variant whose levels have no ratings. {variant} is its
    # name, {variants} the list of the rated variants' names ("Tic-tac-toe and Misère tic-tac-toe").
    "ratings-calibrated-for": Message(
        "page, rating", "Ratings are off in {variant}: ratings are calibrated for {variants} only."
    ),
    # TRANSLATORS: Said beside "By rating" in a variant whose levels have no ratings, when no variant is
    # rated.
    "ratings-none": Message(
        "page, rating", "Ratings are off in {variant}: ratings are not calibrated for any variant yet."
    ),
    # TRANSLATORS: Said when a variant chosen has a lower top rating than the rating chosen: {max} is
    # its top, {was} the rating chosen before.
    "ratings-clamped": Message(
        "page, rating",
        "Ratings in {variant} go up to {max} (perfect play): the rating is now {max} instead of {was}.",
    ),
    # TRANSLATORS: Said when a rating was chosen in a variant where ratings are off: {reason} is the
    # sentence that says why ("Ratings are off in ..."), {level} the level chosen in the menu.
    "level-instead": Message("page, rating", "{reason} The engine plays by level instead: {level}."),
    # TRANSLATORS: Said when the level is changed while the engine chooses its move. {level} is the
    # level as the menu names it.
    "level-again": Message(
        "page, strength", "Level changed to {level}: the engine is choosing its move again at this level."
    ),
    # TRANSLATORS: Said when the rating is changed while the engine chooses its move. {rating} is the
    # rating with its levels: "400 (between hard and perfect)".
    "rating-again": Message(
        "page, strength", "Rating changed to {rating}: the engine is choosing its move again at this rating."
    ),
    # TRANSLATORS: Said when the level is changed while the page checks the person's move: the engine
    # has not begun its own.
    "level-coming": Message(
        "page, strength", "Level changed to {level}: it applies to the engine's coming move."
    ),
    "rating-coming": Message(
        "page, strength", "Rating changed to {rating}: it applies to the engine's coming move."
    ),
    # TRANSLATORS: Said when the level is changed on the person's turn.
    "level-next-move": Message(
        "page, strength", "Level changed to {level}: it applies from the engine's next move."
    ),
    "rating-next-move": Message(
        "page, strength", "Rating changed to {rating}: it applies from the engine's next move."
    ),
    # TRANSLATORS: Said when the level is changed after a game has ended.
    "level-next-game": Message("page, strength", "Level {level} applies from the next game."),
    "rating-next-game": Message("page, strength", "Rating {rating} applies from the next game."),
    # TRANSLATORS: The game's status when a request failed (the error is said beside it).
    "game-stopped": Message("page, status", "Game stopped."),
    # TRANSLATORS: The result of a game.
    "draw": Message("page, status", "Draw."),
    # TRANSLATORS: The result of a game the person won, playing the mark {mark} (X or O).
    "you-win-with": Message("page, status", "You win with {mark}!"),
    "you-win-moving": {
        # TRANSLATORS: The result of a game of wild tic-tac-toe or Notakto (where the sides are the
        # first and the second player) that the person won, moving first.
        "first": Message("page, status", "You win, moving first!"),
        "second": Message("page, status", "You win, moving second!"),
    },
    # TRANSLATORS: The result of a game the engine won, playing the mark {mark}.
    "engine-wins-with": Message("page, status", "The engine wins with {mark}."),
    "engine-wins-moving": {
        # TRANSLATORS: The result of a game of wild tic-tac-toe or Notakto that the engine won.
        "first": Message("page, status", "The engine wins, moving first."),
        "second": Message("page, status", "The engine wins, moving second."),
    },
    # TRANSLATORS: Notakto: who made the last line (and so lost), after the result.
    "engine-made-last-line": Message("page, status", "The engine made the last line."),
    "you-made-last-line": Message("page, status", "You made the last line."),
    # TRANSLATORS: After a game's result: the line or lines that won it. {lines} is a list of lines, each
    # its cells' numbers joined by hyphens ("1-5-9, 3-5-7").
    "winning-lines": Message("page, status", "Winning line: {lines}."),
    # TRANSLATORS: After a game's result in misère, where a line loses: the losing line or lines.
    "losing-lines": Message("page, status", "Losing line: {lines}."),
    # TRANSLATORS: After a game's result in Notakto: the lines on its boards.
    "notakto-lines": Message("page, status", "Lines: {lines}."),
    # TRANSLATORS: Said in the review while the service reviews the game just ended.
    "reviewing": Message("page, review", "Reviewing the game…"),
    # TRANSLATORS: Said in the review when the service could not review the game.
    "no-review": Message("page, review", "This game has no review."),
    # TRANSLATORS: {error} is the sentence that says why ("Cannot reach the service. ...").
    "review-unavailable": Message("page, review", "The review of the game is not available. {error}"),
    # TRANSLATORS: The game's status on the person's turn: {mark} is their mark, X or O.
    "your-turn": Message("page, status", "Your turn: you are {mark}."),
    "your-turn-wild": {
        # TRANSLATORS: The status on the person's turn in wild tic-tac-toe, where a move places X or O:
        # {mark} is the mark chosen now.
        "first": Message("page, status", "Your turn: you move first; place X or O (now {mark})."),
        "second": Message("page, status", "Your turn: you move second; place X or O (now {mark})."),
    },
    "your-turn-notakto": {
        # TRANSLATORS: The status on the person's turn in Notakto, where both sides place X.
        "first": Message("page, status", "Your turn: you move first; place an X on a live board."),
        "second": Message("page, status", "Your turn: you move second; place an X on a live board."),
    },
    # TRANSLATORS: The game's status while the engine chooses its move.
    "thinking": Message("page, status", "The engine is thinking…"),
    # TRANSLATORS: A hint's value of a move, shown small in its cell: the game is drawn with perfect play.
    "hint-draw": Message("page, hint", "draw"),
    # TRANSLATORS: A hint's value of a move, shown small in its cell: a win in {plies} moves (of both
    # sides) with perfect play. Short.
    "hint-win": Message("page, hint", "win {plies}"),
    # TRANSLATORS: A hint's value of a move, shown small in its cell: a loss in {plies} moves.
    "hint-loss": Message("page, hint", "loss {plies}"),
    # TRANSLATORS: A hint's value of a move in wild, in its cell: the mark the move places and its value.
    "hint-mark": Message("page, hint", "{mark} {value}"),
    # TRANSLATORS: A hint's value of a move in wild, in a cell's label for screen readers.
    "hint-mark-said": Message("page, hint", "{mark}: {value}"),
    # TRANSLATORS: The label of a cell with a hint: {values} is its moves' values.
    "hint-cell": Message("page, hint", "{cell}, empty, {values}"),
    # TRANSLATORS: Wild: a cell's values of its two moves, one after the other ("X: win 3; O: draw").
    "hint-values": Message("page, hint", "{first}; {next}"),
    # TRANSLATORS: A move of a hint's list, with the engine's sentence about it. {cell} is the cell's
    # name at the start of the item ("Cell 5").
    "reason": Message("page, hint", "{cell}: {reason}"),
    # TRANSLATORS: A best move of a hint's list.
    "reason-best": Message("page, hint", "{cell} (best): {reason}"),
    # TRANSLATORS: A move of a hint's list in wild, with the mark it places.
    "reason-mark": Message("page, hint", "{cell}, {mark}: {reason}"),
    "reason-mark-best": Message("page, hint", "{cell}, {mark} (best): {reason}"),
    "hint-status": {
        # TRANSLATORS: The status after a hint: what the person can reach with perfect play, and the
        # best cells ({cells}: their numbers, "1, 5, 9").
        "win": Message("page, hint", "Hint: you can win with perfect play; best cells: {cells}."),
        "draw": Message("page, hint", "Hint: you can draw with perfect play; best cells: {cells}."),
        "loss": Message("page, hint", "Hint: you can at best lose with perfect play; best cells: {cells}."),
    },
    "judgement": {
        # TRANSLATORS: The judgements of the moves of a reviewed game, with the signs annotators write
        # beside a move (keep the signs).
        "best": Message("page, judgement", "Best"),
        "inaccuracy": Message("page, judgement", "Inaccuracy (?!)"),
        "mistake": Message("page, judgement", "Mistake (?)"),
        "blunder": Message("page, judgement", "Blunder (??)"),
    },
    # TRANSLATORS: The review before a game ends.
    "review-waiting": Message("page, review", "When this game ends, every move of it is judged here."),
    "moving": {
        # TRANSLATORS: A side of wild tic-tac-toe or Notakto in a review, where the sides are not marks:
        # "You (moving first) played like: ...".
        "first": Message("page, review", "moving first"),
        "second": Message("page, review", "moving second"),
    },
    # TRANSLATORS: A move of wild tic-tac-toe: the mark it places, X or O, and its cell ("O in cell 5").
    "move-mark": Message("page, move", "{mark} in {cell}"),
    # TRANSLATORS: A side's summary in a game's review: {best} of its {count} moves were the best;
    # {accuracy} is a percentage, without its sign.
    "moves-best": Plural(
        "page, review",
        "{best} of {count} move best (accuracy {accuracy}%)",
        "{best} of {count} moves best (accuracy {accuracy}%)",
    ),
    # TRANSLATORS: A side's summary in a game's review: how many of its moves were inaccuracies.
    "inaccuracies": Plural("page, review", "{count} inaccuracy", "{count} inaccuracies"),
    "mistakes": Plural("page, review", "{count} mistake", "{count} mistakes"),
    "blunders": Plural("page, review", "{count} blunder", "{count} blunders"),
    # TRANSLATORS: A side's summary in a game's review: how many only moves (the one move that kept the
    # result) it found.
    "only-moves-found": Plural("page, review", "{count} only move found", "{count} only moves found"),
    # TRANSLATORS: The person's line of a game's review. {side} is their mark or "moving first"; {level}
    # the level they played like, shown in bold ("medium (≈ 316)"); {summary} their moves' summary
    # ("3 of 5 moves best (accuracy 60%), 1 mistake, 1 only move found").
    "side-you": Message("page, review", "You ({side}) played like: {level} — {summary}."),
    "side-engine": Message("page, review", "The engine ({side}) played like: {level} — {summary}."),
    # TRANSLATORS: A side of a game's review that made no move. {nothing} is "no move", in bold.
    "side-you-none": Message("page, review", "You ({side}) made {nothing}"),
    "side-engine-none": Message("page, review", "The engine ({side}) made {nothing}"),
    # TRANSLATORS: The label for screen readers of the small board of a reviewed move: {position} the
    # marks before it ("X on 1, 5; O on 9"), {played} the move played, {better} the better move.
    "mini-board": Message(
        "page, review",
        "Before move {ply}: {position}. Played: {played}, dashed. Better: {better}, marked with a star.",
    ),
    # TRANSLATORS: The cells that hold a mark before a reviewed move: {cells} their numbers ("1, 5").
    "marks-on": Message("page, review", "{mark} on {cells}"),
    # TRANSLATORS: No cell holds this mark before a reviewed move.
    "no-marks": Message("page, review", "no {mark}"),
    # TRANSLATORS: The X and the O before a reviewed move, one after the other.
    "position": Message("page, review", "{x}; {o}"),
    # TRANSLATORS: A move of a game's review: its number, who played it ({side}: a mark or "moving
    # first"), the move ({move}) and its judgement ({judgement}, styled).
    "ply-you": Message("page, review", "Move {ply}, you ({side}): {move} — {judgement}"),
    "ply-engine": Message("page, review", "Move {ply}, the engine ({side}): {move} — {judgement}"),
    # TRANSLATORS: The same, where the move was the only one that kept the result: {only_move} is "only
    # move", styled.
    "ply-you-only": Message("page, review", "Move {ply}, you ({side}): {move} — {judgement} {only_move}"),
    "ply-engine-only": Message(
        "page, review", "Move {ply}, the engine ({side}): {move} — {judgement} {only_move}"
    ),
    # TRANSLATORS: A tag of a reviewed move that was the only one that kept the result.
    "only-move": Message("page, review", "only move"),
    # TRANSLATORS: A button under a reviewed move, and its label for screen readers with the move's number:
    # the label begins with the button's text, word for word (a screen reader's user says what they see).
    "show-better": Message("page, review", "Show the better move"),
    "hide-better": Message("page, review", "Hide the better move"),
    "show-better-for": Message("page, review", "Show the better move for move {ply}"),
    "hide-better-for": Message("page, review", "Hide the better move for move {ply}"),
    # TRANSLATORS: The better move of a reviewed move, and the engine's sentence about it ({reason}).
    "better": Message("page, review", "Better: {move}. {reason}"),
    # TRANSLATORS: The legend of the small board of a reviewed move.
    "mini-legend": Message("page, review", "On the small board: ★ the better move; dashed, the move played."),
    # TRANSLATORS: The review's summary, said when it is shown: {you} and {engine} are the levels each
    # side played like ("medium (≈ 316)").
    "review-summary": Message(
        "page, review",
        "Review: you played like: {you}; the engine played like: {engine}. Every move is judged below.",
    ),
    "puzzles-checking": PUZZLES_CHECKING,
    # TRANSLATORS: Said in the puzzles when the page could not ask the service which variants have them.
    "puzzles-failed": Message(
        "page, puzzles", "Puzzles are off: the service's list of variants could not be loaded."
    ),
    # TRANSLATORS: Said in the puzzles of a variant that has none. {variant} is its name.
    "puzzles-none": Message("page, puzzles", "There are no puzzles of {variant} yet."),
    "theme-any": THEME_ANY,
    # TRANSLATORS: A wrong rating filter of the puzzles: {max} is the top of the variant's scale.
    "low-invalid": Message("page, puzzles", "The lowest rating must be a whole number from 0 to {max}."),
    "high-invalid": Message("page, puzzles", "The highest rating must be a whole number from 0 to {max}."),
    # TRANSLATORS: The puzzles' rating range is upside down: {low} and {high} are its bounds.
    "low-above-high": Message("page, puzzles", "The lowest rating ({low}) is above the highest ({high})."),
    "scale-random": SCALE_RANDOM,
    "scale-level": SCALE_LEVEL,
    "scale-perfect": SCALE_PERFECT,
    "puzzle-scale": PUZZLE_SCALE,
    # TRANSLATORS: The puzzle filters, said when no puzzle matches them: {theme} a theme ("fork").
    "filters-theme": Message("page, puzzles", "theme {theme}, rating {min} to {max}"),
    "filters-any": Message("page, puzzles", "any theme, rating {min} to {max}"),
    # TRANSLATORS: Said while the page asks the service for a puzzle.
    "looking": Message("page, puzzles", "Looking for a puzzle…"),
    # TRANSLATORS: {filters} are the filters ("theme fork, rating 400 to 450"), {button} the button that
    # asks for a puzzle as it reads ("Get a puzzle" or "Next puzzle").
    "no-match": Message(
        "page, puzzles",
        "No puzzle matches these filters ({filters}). Widen the rating range or choose another theme, "
        "then press {button}.",
    ),
    "next-puzzle": NEXT_PUZZLE,
    # TRANSLATORS: A puzzle shown: its rating, and the mark to play, X or O.
    "puzzle-mark": Message("page, puzzles", "Puzzle (rating {rating}): {mark} to play."),
    "puzzle-moving": {
        # TRANSLATORS: A puzzle of wild tic-tac-toe or Notakto shown: its rating, and the side to play.
        "first": Message("page, puzzles", "Puzzle (rating {rating}): you move first."),
        "second": Message("page, puzzles", "Puzzle (rating {rating}): you move second."),
    },
    # TRANSLATORS: What a puzzle asks, after "Puzzle (rating ...): ...".
    "puzzle-win": Message("page, puzzles", "Find the only move that wins."),
    "puzzle-draw": Message("page, puzzles", "Find the only move that holds the draw."),
    # TRANSLATORS: How a puzzle of wild tic-tac-toe is answered.
    "puzzle-how-wild": Message("page, puzzles", "Choose the mark, X or O, then the cell."),
    # TRANSLATORS: How a puzzle of Notakto is answered.
    "puzzle-how-notakto": Message("page, puzzles", "Place an X on a live board."),
    # TRANSLATORS: A puzzle answered right: {move} the answer ("cell 5", "O in cell 5"), {reason} the
    # engine's sentence about it.
    "puzzle-right": Message("page, puzzles", "Right: {move}. {reason}"),
    # TRANSLATORS: A puzzle answered wrong: {move} the answer, {solution} the solution, {reason} the
    # engine's sentence about the solution.
    "puzzle-wrong": Message("page, puzzles", "Wrong: {move} is not it. The solution is {solution}: {reason}"),
    # TRANSLATORS: After a puzzle's answer: its themes, a list ("fork, block").
    "themes": Message("page, puzzles", "Themes: {themes}."),
    # TRANSLATORS: The label of the cell of a puzzle's answer, for screen readers: {mark} the mark placed.
    "answer-right": Message("page, cell label", "{cell}, {mark}, your answer, right"),
    "answer-wrong": Message("page, cell label", "{cell}, {mark}, your answer, wrong"),
    # TRANSLATORS: Wild: the answer's cell is the solution's, with the other mark: {solution} is the
    # solution's mark.
    "answer-wrong-here": Message(
        "page, cell label", "{cell}, {mark}, your answer, wrong: the solution is {solution} here"
    ),
    # TRANSLATORS: The label of the solution's cell after a wrong answer; in wild with its mark.
    "solution-mark": Message("page, cell label", "{cell}, empty, the solution: {mark}"),
    "solution": Message("page, cell label", "{cell}, empty, the solution"),
    # TRANSLATORS: Short tags beside the cells of a puzzle's answer and solution (hidden from screen
    # readers, which hear the cell's label).
    "tag-right": Message("page, tag", "right"),
    "tag-wrong": Message("page, tag", "wrong"),
    "tag-solution-mark": Message("page, tag", "solution: {mark}"),
    "tag-solution": Message("page, tag", "solution"),
    # TRANSLATORS: A variant chosen: its name and its rules (the rules are a sentence of their own).
    "variant-chosen": Message("page, status", "{variant}: {rules}"),
    "press-new-game": PRESS_NEW_GAME,
}


def _forms_samples(words: Words) -> tuple[int, ...]:
    """A number for each plural form of the catalogue ``words``, in the forms' order: 1 for its form,
    else the least one that takes it."""
    header = words.info().get("plural-forms", "")
    found = re.search(r"nplurals\s*=\s*(\d+)", header)
    count = int(found[1]) if found else 2
    rule: Callable[[int], int] = getattr(words, "plural", lambda n: int(n != 1))
    samples: dict[int, int] = {}
    # 1 first: where a form is also another number's (French says 0 and 1 alike), the English text that
    # stands for an untranslated message is the singular, as the form is for 1.
    for number in itertools.chain((1,), range(2, 1001), (0, 10**6, 2 * 10**6, 10**7)):
        samples.setdefault(rule(number), number)
    missing = [form for form in range(count) if form not in samples]
    if missing:
        raise LookupError(f"no number takes the plural forms {missing} of {header!r}")
    return tuple(samples[form] for form in range(count))


def forms(words: Words, message: Plural) -> list[str]:
    """Every form of ``message`` in the language of ``words``, in the catalogue's order."""
    return [
        words.npgettext(message.context, message.singular, message.plural, number)
        for number in _forms_samples(words)
    ]


def _entry(words: Words, entry: Entry) -> str | list[str] | dict[str, str]:
    if isinstance(entry, Message):
        return words.pgettext(entry.context, entry.text)
    if isinstance(entry, Plural):
        return forms(words, entry)
    return {name: words.pgettext(message.context, message.text) for name, message in entry.items()}


def script_words(tag: str) -> dict[str, object]:
    """What the script says in the language ``tag``: the language, and every entry of :data:`SCRIPT`
    in it, a template with its placeholders, a plural's forms, or a family by id."""
    language = words(tag)
    return {"lang": tag, "words": {key: _entry(language, entry) for key, entry in SCRIPT.items()}}


def _json_in_html(data: object) -> str:
    """``data`` as JSON that may stand in a ``<script>`` element: no ``<``, ``>`` or ``&`` in it."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


# --- the HTML --------------------------------------------------------------------------------------------


def _cells_markup(words: Words) -> Markup:
    """The rows of an empty 3 × 3 board, as the page draws the standard game's before the script."""
    rows = []
    for row in range(3):
        cells = []
        for column in range(3):
            index = 3 * row + column
            label = say(words, CELL_EMPTY, cell=say(words, CELL, number=index + 1))
            cells.append(
                f'<div class="gridcell" role="gridcell"><button type="button" class="cell" '
                f'data-cell="{index}" tabindex="{0 if index == 0 else -1}" '
                f'aria-label="{html.escape(label)}"></button></div>'
            )
        rows.append('<div class="row" role="row">\n' + "\n".join(cells) + "\n</div>")
    return Markup("\n".join(rows))


def _variant_options(words: Words) -> Markup:
    """The variants' menu: each with its board's shape, the standard game chosen."""
    options = [
        f'<option value="{variant.id}" data-rows="{variant.size}" data-columns="{variant.size}" '
        f'data-boards="{variant.boards}" data-marks="{variant.marks}" '
        f'data-misere="{str(variant.misere).lower()}"{" selected" if variant is STANDARD else ""}>'
        f"{html.escape(say(words, variant.name))}</option>"
        for variant in VARIANTS.values()
    ]
    return Markup("\n".join(options))


def _level_options(words: Words) -> Markup:
    return Markup(
        "\n".join(
            f'<option value="{level}"{" selected" if level == "perfect" else ""}>'
            f"{html.escape(say(words, message))}</option>"
            for level, message in LEVEL_OPTIONS.items()
        )
    )


def _rating_marks(words: Words) -> Markup:
    """The slider's marks: the standard game's calibrated players, until the service lists the
    variants."""
    return Markup(
        "\n".join(
            f'<option value="{rating}" label="{html.escape(say(words, LEVEL_WORDS[name]))}" '
            f'data-level="{name}"></option>'
            for name, rating in STANDARD_RATINGS.items()
        )
    )


def _rating_value(words: Words, value: int) -> str:
    """A rating on the standard game's scale in words, as the script's ``ratingWords`` says it."""
    ratings = STANDARD_RATINGS
    exact = [name for name, rating in ratings.items() if rating == value]
    if exact:
        return say(words, RATING_EXACT, rating=value, level=say(words, LEVEL_WORDS[exact[0]]))
    lower = [(name, rating) for name, rating in ratings.items() if rating < value][-1]
    upper = next((name, rating) for name, rating in ratings.items() if rating > value)
    return say(
        words,
        RATING_BETWEEN,
        rating=value,
        lower=say(words, LEVEL_WORDS[lower[0]]),
        lower_rating=lower[1],
        upper=say(words, LEVEL_WORDS[upper[0]]),
        upper_rating=upper[1],
    )


def _puzzle_scale(words: Words) -> str:
    """The standard game's puzzle scale, as the script's ``showPuzzleChoice`` says it."""
    ratings = STANDARD_RATINGS
    items = []
    for name, rating in ratings.items():
        if name == "random":
            items.append(say(words, SCALE_RANDOM, rating=rating))
        elif name == "perfect":
            items.append(say(words, SCALE_PERFECT, rating=rating))
        else:
            items.append(say(words, SCALE_LEVEL, rating=rating, level=say(words, LEVEL_WORDS[name])))
    top = ratings.get("perfect", 0)
    return say(words, PUZZLE_SCALE, variant=say(words, STANDARD.name), max=top, scale=listed(words, items))


def _theme_options(words: Words) -> Markup:
    options = [f'<option value="" selected>{html.escape(say(words, THEME_ANY))}</option>']
    options += [
        f'<option value="{tag}">{html.escape(say(words, THEME_OPTIONS[tag]))}</option>'
        for tag in STANDARD_THEMES
    ]
    return Markup("\n".join(options))


def _language_options(tag: str) -> Markup:
    """The languages' menu: each named in itself, in its own language, the page's chosen."""
    return Markup(
        "\n".join(
            f'<option value="{other}" lang="{other}"{" selected" if other == tag else ""}>'
            f"{html.escape(NAMES[other])}</option>"
            for other in LANGUAGES
        )
    )


#: Every text of ``play.html`` by its placeholder's name (``{{name}}``): a message, or a message with
#: values.
HTML: dict[str, Message | Said] = {
    # TRANSLATORS: The title of the game page (the browser's tab).
    "title": Message("page, title", "Tic-tac-toe against the engine"),
    # TRANSLATORS: The main heading of the game page: the game's name.
    "heading": Message("page, heading", "Tic-tac-toe"),
    # TRANSLATORS: The label of the menu of languages at the top of the game page, and its button.
    "language_label": Message("page, language", "Language"),
    # TRANSLATORS: The button beside the menu of languages that shows the page in the one chosen.
    "language_button": Message("page, language", "Change language"),
    # TRANSLATORS: The heading of the game's half of the page.
    "game_title": Message("page, heading", "Play against the engine"),
    # TRANSLATORS: The name of the game's settings for screen readers.
    "settings_label": Message("page", "Game settings"),
    # TRANSLATORS: The label of the menu of variants (Tic-tac-toe, Misère tic-tac-toe, ...).
    "variant_label": Message("page, setting", "Variant"),
    "variant_rules": STANDARD.rules,
    # TRANSLATORS: The label of the menu of the person's mark, X or O.
    "side_label": Message("page, setting", "You play"),
    # TRANSLATORS: The label of the menu of the mark that moves first, X or O.
    "first_label": Message("page, setting", "First move"),
    # TRANSLATORS: The label of the menu of the person's turn in wild tic-tac-toe and Notakto: first or
    # second.
    "order_label": Message("page, setting", "You move"),
    # TRANSLATORS: The entries of the menu "You move".
    "order_first": Message("page, setting", "First"),
    "order_second": Message("page, setting", "Second"),
    # TRANSLATORS: The legend of the engine's strength: a level, or a rating.
    "strength_legend": Message("page, setting", "Engine strength"),
    # TRANSLATORS: The radio button that sets the engine's strength by a level.
    "by_level": Message("page", "By level"),
    # TRANSLATORS: The label of the menu of the engine's levels.
    "level_label": Message("page, setting", "Engine level"),
    "by_rating": BY_RATING,
    # TRANSLATORS: The label of the slider of the engine's rating.
    "rating_label": Message("page, setting", "Engine rating"),
    "rating_note": RATINGS_CHECKING,
    "new_game": NEW_GAME,
    "hint": HINT,
    "status": Said(PRESS_NEW_GAME, {"button": NEW_GAME}),
    # TRANSLATORS: The legend of the choice of mark in wild tic-tac-toe, where a move places X or O.
    "mark_legend": Message("page, setting", "Your next mark"),
    "mark_help": Said(
        # TRANSLATORS: {x} and {o} are the keys X and O, shown as keys.
        Message("page, help", "Keys {x} and {o} choose it too."),
        {"x": _key("X"), "o": _key("O")},
    ),
    # TRANSLATORS: The name of the game's board for screen readers.
    "board_label": Message("page", "Board"),
    # TRANSLATORS: The name of the list of a hint's moves for screen readers.
    "reasons_label": Message("page", "Why each move, best first"),
    # TRANSLATORS: The heading of the review of a game, under the board.
    "review_title": Message("page, heading", "Review of the game"),
    # TRANSLATORS: What the review says before the first game ends.
    "review_waiting": Message(
        "page, review",
        "When a game ends, every move of it is judged here — best, inaccuracy, mistake or blunder — with "
        "the better move where there was one, and the level each side played like.",
    ),
    # TRANSLATORS: The names of the review's two lists for screen readers.
    "review_players_label": Message("page, review", "How each side played"),
    "review_moves_label": Message("page, review", "Every move, judged"),
    "level_help": Said(
        # TRANSLATORS: The help on the engine's strength. The numbers are the standard game's ratings of the
        # levels ({perfect} is perfect play's, the top); {by_rating} is the radio button "By rating".
        Message(
            "page, help",
            "Levels, weakest first, in every variant: a beginner plays mostly anywhere, now and then the "
            "best move it sees two moves ahead; easy plays that move more often than not, medium always; "
            "hard sees four moves ahead; perfect sees the whole game and plays an exact move every time. "
            "In the standard game that is a win or a block, then forks too, and perfect never loses. By "
            "rating, the engine plays at any strength on the levels' Elo scale, which each variant "
            "measures on its own: from 0 (a random player) to perfect play's rating in that variant, with "
            "its levels' ratings as the slider's marks (in the standard game, 0 to {perfect}: beginner is "
            "{beginner}, easy {easy}, medium {medium} and hard {hard}). Ratings apply only in the variants "
            "whose levels are calibrated; elsewhere {by_rating} is off and says why. A strength changed "
            "during a game applies from the engine's next move.",
        ),
        {**{name: STANDARD_RATINGS[name] for name in LEVEL_NAMES[1:]}, "by_rating": BY_RATING},
    ),
    "board_help": Said(
        # TRANSLATORS: The help on the keys of the board. {home}, {end}, {ctrl}, {enter} and {space} are
        # the keys, shown as keys and named as the keyboard labels them; {n} and {h} are the keys N and H.
        Message(
            "page, help",
            "Tab reaches the board; the arrow keys move around it, {home} and {end} to the ends of a row "
            "(with {ctrl}, of the board), and {enter} or {space} plays. On one 3 × 3 board keys 1–9 play a "
            "cell (1 is top-left), {n} starts a new game, {h} shows a hint: every move's value for you "
            "with perfect play after it, and why.",
        ),
        {
            # TRANSLATORS: The keys of the keyboard that the help of the game page names, as keyboards
            # in the language label them.
            "home": _key(Message("page, key", "Home")),
            "end": _key(Message("page, key", "End")),
            "ctrl": _key(Message("page, key", "Ctrl")),
            "enter": _key(Message("page, key", "Enter")),
            "space": _key(Message("page, key", "Space")),
            "n": _key("N"),
            "h": _key("H"),
        },
    ),
    # TRANSLATORS: The heading of the puzzles' half of the page.
    "puzzles_title": Message("page, heading", "Puzzles"),
    "puzzle_note": PUZZLES_CHECKING,
    # TRANSLATORS: The name of the puzzles' filters for screen readers.
    "puzzle_settings_label": Message("page", "Puzzle settings"),
    # TRANSLATORS: The label of the menu of puzzle themes.
    "theme_label": Message("page, setting", "Theme"),
    # TRANSLATORS: The legend of the puzzles' rating range, and the labels of its two bounds: "from ...
    # to ...".
    "rating_legend": Message("page, setting", "Rating"),
    # TRANSLATORS: The label of the lowest rating of the puzzles' range: "Rating: from ... to ...".
    "from_label": Message("page, setting", "from"),
    # TRANSLATORS: The label of the highest rating of the puzzles' range: "Rating: from ... to ...".
    "to_label": Message("page, setting", "to"),
    "get_puzzle": GET_PUZZLE,
    "puzzle_status": Said(
        # TRANSLATORS: What the puzzles say before the first one. {button} is the button "Get a puzzle".
        Message("page, puzzles", "Choose a theme and a rating range, then press {button}."),
        {"button": GET_PUZZLE},
    ),
    # TRANSLATORS: The legend of the choice of mark of a puzzle's answer in wild tic-tac-toe.
    "puzzle_mark_legend": Message("page, setting", "Your answer's mark"),
    "puzzle_mark_help": Said(
        # TRANSLATORS: {x} and {o} are the keys X and O, shown as keys.
        Message("page, help", "On the puzzle board, keys {x} and {o} choose it too."),
        {"x": _key("X"), "o": _key("O")},
    ),
    # TRANSLATORS: The name of the puzzle's board for screen readers.
    "puzzle_board_label": Message("page", "Puzzle board"),
    "puzzle_help": Said(
        # TRANSLATORS: The help on the puzzles: {scale} is the chosen variant's scale, a sentence of its own
        # ("In Tic-tac-toe, from 0 to 493: ...").
        Message(
            "page, help",
            "A puzzle is a position of the variant chosen above where exactly one move keeps a win, or a "
            "draw: find it (in wild, its cell and its mark). Its rating, on the variant's own scale, is "
            "the calibrated level that finds it at least half of the time. {scale}",
        ),
        {"scale": Element("span", _puzzle_scale, ' id="puzzle-scale"')},
    ),
    "puzzle_board_help": Said(
        # TRANSLATORS: The help on the keys of the puzzle board: {n} is the key N, shown as a key.
        Message(
            "page, help",
            "On the puzzle board the same keys move and play as on the game's board; on one 3 × 3 board "
            "keys 1–9 answer, and {n} gives the next puzzle.",
        ),
        {"n": _key("N")},
    ),
    # TRANSLATORS: The link to the service's API documentation, at the foot of the game page.
    "docs_link": Message("page", "API documentation"),
}


def _html(words: Words, text: Message | Said) -> str:
    """``text`` said in the language of ``words``, as HTML: its own words escaped, its values' too,
    and markup as it is."""
    said = text if isinstance(text, Said) else Said(text)
    values = {name: _html_value(words, value) for name, value in said.values.items()}
    template = html.escape(words.pgettext(said.message.context, said.message.text))
    return template.format(**values) if values else template


def _html_value(words: Words, value: Value) -> str:
    if isinstance(value, Markup):
        return str(value)
    if isinstance(value, Element):
        return f"<{value.tag}{value.attributes}>{_html_value(words, value.text)}</{value.tag}>"
    if isinstance(value, Message | Said):
        return _html(words, value)
    if callable(value):
        return html.escape(value(words))
    return html.escape(str(value))


#: A placeholder of the template: ``{{name}}``.
_PLACEHOLDER = re.compile(r"\{\{\s*([a-z_]+)\s*\}\}")


def pieces(tag: str) -> dict[str, str]:
    """Every placeholder of the template, filled in the language ``tag``: HTML."""
    language = words(tag)
    ratings = STANDARD_RATINGS
    start = 250
    filled = {name: _html(language, text) for name, text in HTML.items()}
    return filled | {
        "lang": tag,
        "language_options": _language_options(tag),
        "variant_options": _variant_options(language),
        "level_options": _level_options(language),
        "rating_max": str(ratings.get("perfect", 0)),
        "rating_start": str(start),
        "rating_value": html.escape(_rating_value(language, start)),
        "rating_marks": _rating_marks(language),
        "board_cells": _cells_markup(language),
        "puzzle_cells": _cells_markup(language),
        "theme_options": _theme_options(language),
        "page_words": _json_in_html(script_words(tag)),
    }


def rendered(template: str, tag: str) -> str:
    """The page ``template`` in the language ``tag``: every placeholder filled; one unknown is an error."""
    filled = pieces(tag)

    def fill(match: re.Match[str]) -> str:
        return filled[match[1]]

    return _PLACEHOLDER.sub(fill, template)
