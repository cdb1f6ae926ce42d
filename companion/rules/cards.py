"""Cards: the fourteen card kinds of Dog and their text names (INTERFACES.md section 2)."""

from __future__ import annotations

from enum import Enum

from companion.rules.errors import CardError, excerpt

__all__ = ["CONCRETE_CARDS", "START_CARDS", "Card", "CardError", "parse_card"]


class Card(Enum):
    """A card kind. ``str(card)`` is its canonical name: ``"A"``, ``"10"``, ``"JOKER"``.

    Suits play no part in Dog, so a card is only its kind.
    """

    ACE = "A"
    KING = "K"
    QUEEN = "Q"
    JACK = "J"
    TEN = "10"
    NINE = "9"
    EIGHT = "8"
    SEVEN = "7"
    SIX = "6"
    FIVE = "5"
    FOUR = "4"
    THREE = "3"
    TWO = "2"
    JOKER = "JOKER"

    def __str__(self) -> str:
        return self.value

    @property
    def forward_steps(self) -> tuple[int, ...]:
        """The distances this card moves one peg forward (empty for J, 7 and JOKER)."""
        return _FORWARD.get(self, ())

    @property
    def starts(self) -> bool:
        """Whether the card can move a peg from the kennel onto its start field (A, K)."""
        return self in START_CARDS


_FORWARD: dict[Card, tuple[int, ...]] = {
    Card.ACE: (1, 11),
    Card.KING: (13,),
    Card.QUEEN: (12,),
    Card.TEN: (10,),
    Card.NINE: (9,),
    Card.EIGHT: (8,),
    Card.SIX: (6,),
    Card.FIVE: (5,),
    Card.FOUR: (4,),
    Card.THREE: (3,),
    Card.TWO: (2,),
}

START_CARDS = frozenset({Card.ACE, Card.KING})

CONCRETE_CARDS: tuple[Card, ...] = tuple(card for card in Card if card is not Card.JOKER)
"""Every card but the Joker, in the order the Joker tries them."""

_ALIASES: dict[str, Card] = {
    **{card.value: card for card in Card},
    "1/11": Card.ACE,
    "1": Card.ACE,
    "11": Card.ACE,
    "ACE": Card.ACE,
    "13": Card.KING,
    "KING": Card.KING,
    "12": Card.QUEEN,
    "QUEEN": Card.QUEEN,
    "SWAP": Card.JACK,
    "JACK": Card.JACK,
    "TAUSCH": Card.JACK,
    "?": Card.JOKER,
    "4±": Card.FOUR,
    "4+-": Card.FOUR,
}


def parse_card(text: str) -> Card:
    """The card named by ``text``, case-insensitive.

    Canonical names are ``A K Q J 10 9 8 7 6 5 4 3 2 JOKER``; the Schmidt names ``1/11``,
    ``13``, ``12``, ``SWAP`` (Tausch) and ``?`` are accepted as aliases.

    >>> parse_card("q")
    <Card.QUEEN: 'Q'>
    """
    if not isinstance(text, str):
        raise CardError(f"{excerpt(text)} is not a card name")
    card = _ALIASES.get(text.strip().upper())
    if card is None:
        names = " ".join(card.value for card in Card)
        raise CardError(f"{excerpt(text)} is not a Dog card (one of {names}, or 1/11 13 12 SWAP ?)")
    return card
