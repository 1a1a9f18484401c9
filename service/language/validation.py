"""The words of an input error, in any language: the service's own errors carry them
(:class:`~service.game.words.Said`, in the error's context as ``said``), and those that Pydantic
raises itself are said from :data:`PYDANTIC_ERRORS`, its own message templates as messages of the
catalogue, by the error's type.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from string import Formatter
from typing import Any

from ..game.words import Listed, Message, Plural, Said

#: Pydantic's message of each type of error that a request can meet, as Pydantic words it (a test
#: checks each against Pydantic's own template), and the member of the error's context that a plural
#: message is said for.
PYDANTIC_ERRORS: dict[str, Message | Plural] = {
    # TRANSLATORS: Pydantic's messages for the errors of a request's input; {placeholders} are
    # values of the rule (a bound, a length, a pattern, the values expected).
    "missing": Message("error", "Field required"),
    "extra_forbidden": Message("error", "Extra inputs are not permitted"),
    "string_type": Message("error", "Input should be a valid string"),
    "string_too_short": Plural(
        "error",
        "String should have at least {min_length} character",
        "String should have at least {min_length} characters",
    ),
    "string_too_long": Plural(
        "error",
        "String should have at most {max_length} character",
        "String should have at most {max_length} characters",
    ),
    "string_pattern_mismatch": Message("error", "String should match pattern '{pattern}'"),
    "string_unicode": Message(
        "error", "Input should be a valid string, unable to parse raw data as a unicode string"
    ),
    "int_type": Message("error", "Input should be a valid integer"),
    "int_parsing": Message("error", "Input should be a valid integer, unable to parse string as an integer"),
    "int_parsing_size": Message("error", "Unable to parse input string as an integer, exceeded maximum size"),
    "int_from_float": Message(
        "error", "Input should be a valid integer, got a number with a fractional part"
    ),
    "float_type": Message("error", "Input should be a valid number"),
    "float_parsing": Message("error", "Input should be a valid number, unable to parse string as a number"),
    "finite_number": Message("error", "Input should be a finite number"),
    "bool_type": Message("error", "Input should be a valid boolean"),
    "bool_parsing": Message("error", "Input should be a valid boolean, unable to interpret input"),
    "greater_than": Message("error", "Input should be greater than {gt}"),
    "greater_than_equal": Message("error", "Input should be greater than or equal to {ge}"),
    "less_than": Message("error", "Input should be less than {lt}"),
    "less_than_equal": Message("error", "Input should be less than or equal to {le}"),
    "multiple_of": Message("error", "Input should be a multiple of {multiple_of}"),
    # TRANSLATORS: {expected} lists the values allowed, quoted ("'X' or 'O'").
    "literal_error": Message("error", "Input should be {expected}"),
    "enum": Message("error", "Input should be {expected}"),
    "list_type": Message("error", "Input should be a valid list"),
    "too_short": Plural(
        "error",
        "{field_type} should have at least {min_length} item after validation, not {actual_length}",
        "{field_type} should have at least {min_length} items after validation, not {actual_length}",
    ),
    "too_long": Plural(
        "error",
        "{field_type} should have at most {max_length} item after validation, not {actual_length}",
        "{field_type} should have at most {max_length} items after validation, not {actual_length}",
    ),
    "model_type": Message("error", "Input should be a valid dictionary or instance of {class_name}"),
    "model_attributes_type": Message(
        "error", "Input should be a valid dictionary or object to extract fields from"
    ),
    "dict_type": Message("error", "Input should be a valid dictionary"),
    "none_required": Message("error", "Input should be None"),
}
#: The member of the context that a plural message of :data:`PYDANTIC_ERRORS` is said for.
_NUMBER = {
    "string_too_short": "min_length",
    "string_too_long": "max_length",
    "too_short": "min_length",
    "too_long": "max_length",
}


def _fields(message: Message | Plural) -> set[str]:
    """The placeholders of a message."""
    text = message.text if isinstance(message, Message) else message.plural
    return {name for _, name, _, _ in Formatter().parse(text) if name}


def _number(value: object) -> object:
    """A value of an error's context as Pydantic writes it: a whole float without its ``.0``."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


#: Pydantic's list of the values expected, each quoted, joined by ", " and a last " or ":
#: ``'X' or 'O'``, ``'a', 'b' or 'c'``.
_EXPECTED = re.compile(r"'[^']*'(?:(?:, | or )'[^']*')*")


def _expected(value: object) -> object:
    """The values expected by a literal or an enum as a list said with the language's ``or``; a
    value of another form as it is."""
    if not isinstance(value, str) or _EXPECTED.fullmatch(value) is None:
        return value
    return Listed(tuple(re.findall(r"'[^']*'", value)), either=True)


def said(error: Mapping[str, Any]) -> Said | None:
    """What an input error says, in any language: the service's words, or Pydantic's for an error of a
    type of :data:`PYDANTIC_ERRORS`; ``None`` for any other (its message is then English)."""
    context = error.get("ctx") or {}
    found = context.get("said")
    if isinstance(found, Said):
        return found
    message = PYDANTIC_ERRORS.get(str(error.get("type")))
    if message is None or not _fields(message) <= context.keys():
        return None
    values = tuple(
        (name, _expected(value) if name == "expected" else _number(value))
        for name, value in context.items()
        if name != "expected_plural"
    )
    number = context.get(_NUMBER.get(str(error.get("type")), ""))
    return Said(message, values, number if isinstance(number, int) else None)
