"""An answer that never changes, and its strong entity tag."""

from __future__ import annotations

import hashlib
from typing import NamedTuple

from ..language import DEFAULT


def etag(body: bytes, language: str = DEFAULT) -> str:
    """A strong entity tag for a body in ``language``: a hash of its bytes, so equal bodies share it,
    keyed by the language (but for the default), so that answers in two languages never do, even where
    their bytes are the same: they are different representations (RFC 9110 §8.8.3)."""
    person = b"" if language == DEFAULT else language.encode()
    return '"' + hashlib.blake2b(body, digest_size=12, person=person).hexdigest() + '"'


class Entity(NamedTuple):
    """A deterministic answer: its JSON bytes and their strong entity tag."""

    body: bytes
    tag: str

    @classmethod
    def of(cls, body: bytes, language: str = DEFAULT) -> Entity:
        return cls(body, etag(body, language))
