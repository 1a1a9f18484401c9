"""An answer that never changes, and its strong entity tag."""

from __future__ import annotations

import hashlib
from typing import NamedTuple


def etag(body: bytes) -> str:
    """A strong entity tag for a body: a hash of its bytes, so equal bodies share it."""
    return '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'


class Entity(NamedTuple):
    """A deterministic answer: its JSON bytes and their strong entity tag."""

    body: bytes
    tag: str

    @classmethod
    def of(cls, body: bytes) -> Entity:
        return cls(body, etag(body))
