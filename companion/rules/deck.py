"""The card deck: 110 cards, a stack to draw from and a discard pile.

The deck is two French decks of 52 cards plus 3 jokers each (docs/rulebook.md#material). Suits play
no part in Dog, so a deck is a multiset of :class:`Card` values: eight of every rank and six
jokers. Every shuffle uses the :class:`random.Random` the deck was given, so a seeded generator
makes a whole game reproducible.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence

from companion.rules.cards import Card

RANK_COPIES = 8
JOKER_COPIES = 6
DECK_SIZE = 110

FULL_DECK: tuple[Card, ...] = tuple(
    card for card in Card for _ in range(JOKER_COPIES if card is Card.JOKER else RANK_COPIES)
)


class DeckError(ValueError):
    """A deck was asked for cards it cannot hold or give."""


class Deck:
    """A stack of cards to deal from and the discard pile beside it.

    ``top`` lists cards to lie on top of the stack in the order they will be drawn (for tests,
    puzzles and replays of a physically stacked deck); the rest of the 110 cards are shuffled
    below them. When the stack runs out, the discard pile is shuffled and becomes the stack.
    """

    def __init__(self, rng: random.Random, top: Sequence[Card] = ()) -> None:
        rest = Counter(FULL_DECK)
        rest.subtract(top)
        missing = sorted(str(card) for card, count in rest.items() if count < 0)
        if missing:
            raise DeckError(f"the deck holds too few of {', '.join(missing)} for the given top")
        self._rng = rng
        below = list(rest.elements())
        rng.shuffle(below)
        # The stack is drawn from its end: reverse the top so that top[0] comes first.
        self._stack: list[Card] = below + list(reversed(top))
        self._discards: list[Card] = []

    @property
    def stack_size(self) -> int:
        """Number of cards left to draw before the discard pile is reshuffled."""
        return len(self._stack)

    @property
    def discards(self) -> tuple[Card, ...]:
        """The discard pile, oldest card first."""
        return tuple(self._discards)

    @property
    def stack(self) -> tuple[Card, ...]:
        """The stack, next card to draw first."""
        return tuple(reversed(self._stack))

    def copy(self) -> Deck:
        """An independent deck in the same state, with its own copy of the generator."""
        twin = Deck.__new__(Deck)
        twin._rng = random.Random()
        twin._rng.setstate(self._rng.getstate())
        twin._stack = list(self._stack)
        twin._discards = list(self._discards)
        return twin

    def draw(self) -> Card:
        """Take the top card, reshuffling the discard pile into a new stack if needed."""
        if not self._stack:
            if not self._discards:
                raise DeckError("no card left: the stack and the discard pile are empty")
            self._stack = self._discards
            self._discards = []
            self._rng.shuffle(self._stack)
        return self._stack.pop()

    def discard(self, cards: Iterable[Card]) -> None:
        """Put cards face up on the discard pile."""
        self._discards.extend(cards)
