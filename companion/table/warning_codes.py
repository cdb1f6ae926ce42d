"""The board reader's warnings as codes the page translates.

The reader's warnings (`vision.reader.warning.ReaderWarning`, from
`vision.reader.board_reader.reference_warnings`) are English sentences that carry their own
``code`` and ``args``; each becomes ``{"code", "args"}``:

- ``kennel_overexposed`` (``color``: the kennel's colour, or ``seat N``);
- ``board_overexposed`` (``share``: how much of the board, e.g. ``"35%"``);
- ``reference_blurred`` (``blur``: how far the picture spreads an edge, e.g. ``"1.8 px"``);
- ``reader_warning`` (``text``: the sentence itself) for a sentence without a code.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

# The codes the reader's warnings carry.
CODES = ("kennel_overexposed", "board_overexposed", "reference_blurred")


def warning_code(text: str) -> dict[str, Any]:
    """One reader warning as ``{"code", "args"}`` (its own code, else ``reader_warning``)."""
    code, args = getattr(text, "code", None), getattr(text, "args", None)
    if isinstance(code, str) and code in CODES and args is not None:
        return {"code": code, "args": {str(key): str(value) for key, value in args.items()}}
    return {"code": "reader_warning", "args": {"text": str(text)}}


def warning_codes(texts: Iterable[str]) -> list[dict[str, Any]]:
    """Every reader warning as ``{"code", "args"}``, in order."""
    return [warning_code(text) for text in texts]
