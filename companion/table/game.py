"""The rules' :class:`~companion.rules.Game` in referee mode, plus the referee's override."""

from __future__ import annotations

from companion.rules import Card, Game, Position
from companion.rules.record import Play


class RefereeGame(Game):
    """A referee-mode game that also takes the referee's word for a move the rules refuse."""

    def force(self, card: Card | None, after: Position, player: int) -> Play:
        """The referee accepts ``after`` as played by ``player`` (with ``card``, which then
        leaves the hand; None: the board is set without a card). The turn passes as after a
        move; the game may end."""
        self._require_turn(player, "play")
        if card is not None:
            self._require_cards(player, [card])
            self._take_cards(player, [card])
        self._redrawn = False
        self._position = after.with_turn(player)
        winners = self._position.winner()
        if winners is not None:
            self._winners = winners
            self._phase = type(self._phase).OVER
            self._turn = None
        else:
            self._pass_turn(player)
        notation = f"{card if card is not None else '-'}: set by the referee"
        return self._accept(Play(player, card or Card.JOKER, self._position, notation))
