"""Counters that tests fill and the session summary prints (requests sent, inputs tried, errors seen)."""

from __future__ import annotations

from collections import Counter

counts: Counter[str] = Counter()
