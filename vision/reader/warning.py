"""The reader's warnings about a reference frame: an English sentence with a code.

A `ReaderWarning` is the sentence itself (a ``str``: printed, logged and stored as it is) and
carries a ``code`` and its ``args`` (strings) for pages that say it in another language:

- ``kennel_overexposed`` (``color``: the kennel's colour name, or ``seat N``);
- ``board_overexposed`` (``share``: how much of the bare board, e.g. ``"35%"``);
- ``reference_blurred`` (``blur``: how far the picture spreads an edge, e.g. ``"1.8 px"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

RETAKE = "lower the exposure (or the light) and take the reference again"


class ReaderWarning(str):
    """One warning: its English text, its ``code`` and ``args`` (immutable)."""

    code: str
    args: Mapping[str, str]

    def __new__(cls, code: str, args: Mapping[str, str], text: str) -> ReaderWarning:
        warning = super().__new__(cls, text)
        object.__setattr__(warning, "code", code)
        object.__setattr__(warning, "args", MappingProxyType(dict(args)))
        return warning

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: {name}")

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.code, dict(self.args), str(self))

    @property
    def text(self) -> str:
        """The English sentence."""
        return str(self)


def kennel_overexposed(colour: str) -> ReaderWarning:
    """A kennel overexposed in the reference: its marbles look like the board."""
    return ReaderWarning("kennel_overexposed", {"color": colour},
                         f"the {colour} kennel is overexposed: {colour} marbles cannot be told "
                         f"from the board and may be read as empty; {RETAKE}")


def board_overexposed(share: float) -> ReaderWarning:
    """Much of the bare board overexposed in the reference (``share`` 0…1): hands go unseen."""
    percent = f"{share:.0%}"
    return ReaderWarning("board_overexposed", {"share": percent},
                         f"{percent} of the board is overexposed: a hand or card there may go "
                         f"unseen; {RETAKE}")


def reference_blurred(blur_px: float) -> ReaderWarning:
    """The reference out of focus: edges spread over ``blur_px`` (Gaussian σ, pixels)."""
    blur = f"{blur_px:.1f} px"
    return ReaderWarning("reference_blurred", {"blur": blur},
                         f"the picture is blurred (edges spread over {blur}): "
                         "marbles may be read as empty and the board may be lost; focus the "
                         "camera and take the reference again")
