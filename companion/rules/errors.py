"""The errors of the rules engine: every one names the offending key or text and its value."""

from __future__ import annotations

import json


class PositionError(ValueError):
    """A position (or a pair of positions) is not valid ``dog-position/1``.

    The message starts with the path of the offending key, e.g.
    ``players[1].pegs[2]: "T99" is off the 64-field track``.
    """


class CardError(ValueError):
    """A text does not name a Dog card."""


MAX_DEPTH = 32
"""Containers nested deeper than this are refused: no valid position comes near it."""

EXCERPT_LENGTH = 60
"""Messages quote at most this many characters of an offending value."""


def excerpt(value: object, limit: int = EXCERPT_LENGTH) -> str:
    """A short JSON-like text of ``value`` for an error message: at most ``limit`` characters
    (a cut value ends in ``…``), safe for values of any size and depth."""
    text = _sketch(value, 3, limit + 1)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _sketch(value: object, depth: int, budget: int) -> str:
    if isinstance(value, str):
        return json.dumps(value[:budget], ensure_ascii=False)
    if value is None or isinstance(value, (bool, int, float)):
        return json.dumps(value)[:budget]
    if isinstance(value, (list, tuple, dict)):
        if not value:
            return "{}" if isinstance(value, dict) else "[]"
        if depth == 0:
            return "{…}" if isinstance(value, dict) else "[…]"
        items: list[str] = []
        used = 2
        for item in value.items() if isinstance(value, dict) else value:
            if used >= budget:
                items.append("…")
                break
            if isinstance(value, dict):
                key, item_value = item
                part = f"{_sketch(str(key), 0, budget)}: {_sketch(item_value, depth - 1, budget)}"
            else:
                part = _sketch(item, depth - 1, budget)
            items.append(part)
            used += len(part) + 2
        inner = ", ".join(items)
        return "{" + inner + "}" if isinstance(value, dict) else "[" + inner + "]"
    return f"<{type(value).__name__}>"


def too_deep(value: object, limit: int = MAX_DEPTH) -> bool:
    """Whether lists and objects in ``value`` nest deeper than ``limit`` (no recursion)."""
    stack: list[tuple[object, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, tuple, dict)):
            if depth >= limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return False
