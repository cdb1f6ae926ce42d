"""The rules' :class:`~companion.rules.Game` in referee mode, plus the referee's override."""

from __future__ import annotations

from companion.rules import Card, Game, Position
from companion.rules.record import Play


class RefereeGame(Game):
    """A referee-mode game that also takes the referee's word for a move the rules refuse."""

    def force(self, card: Card | None, after: Position, player: int) -> Play | None:
        """The referee accepts ``after`` as played by ``player`` (with ``card``, which then
        leaves the hand; None: the board is set without a card). The turn passes as after a
        move; the game may end. With a card the record gets a play the rules would refuse;
        without one nothing is recorded (a record cannot say "the board was set")."""
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
        if card is None:
            return None
        return self._accept(Play(player, card, self._position, f"{card}: set by the referee"))
