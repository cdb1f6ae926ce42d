"""The board reader's warnings (English sentences) as codes the page translates.

`vision.reader.board_reader.reference_warnings` says what in a reference frame will make the
readings worse; each of its sentences is recognised here and becomes ``{"code", "args"}``:

- ``kennel_overexposed`` (``color``: the kennel's colour, or ``seat N``);
- ``board_overexposed`` (``share``: how much of the board, e.g. ``"35%"``);
- ``reader_warning`` (``text``: the sentence itself) for any other sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

PATTERNS = (
    ("kennel_overexposed", re.compile(r"the (?P<color>.+?) kennel is overexposed\b")),
    ("board_overexposed", re.compile(r"(?P<share>\d+%) of the board is overexposed\b")),
)


def warning_code(text: str) -> dict[str, Any]:
    """One reader warning as ``{"code", "args"}``."""
    for code, pattern in PATTERNS:
        found = pattern.match(text)
        if found is not None:
            return {"code": code, "args": found.groupdict()}
    return {"code": "reader_warning", "args": {"text": text}}


def warning_codes(texts: Iterable[str]) -> list[dict[str, Any]]:
    """Every reader warning as ``{"code", "args"}``, in order."""
    return [warning_code(text) for text in texts]
