"""The rules of Dog (Brändi Dog, Schmidt DOG®): a pure rules engine, stdlib only.

Value types (:class:`Card`, :class:`RuleSet`, :class:`Position`, :class:`Move`), the legal-move
generator and the referee's :func:`check`. No I/O, no imports from the rest of the project.

>>> from companion.rules import Position, SWISS, Card, legal_moves
>>> start = Position.initial(SWISS, 4, ["red", "yellow", "green", "blue"])
>>> [move.notation for move in legal_moves(start, Card.ACE)]
['A: red K→T0*']
"""

import importlib
from typing import Any

from companion.rules.cards import Card, parse_card
from companion.rules.errors import CardError, PositionError
from companion.rules.move import Move, Part
from companion.rules.moves import legal_moves, legal_moves_by_card, playable
from companion.rules.position import Layout, Player, Position
from companion.rules.referee import Nearest, Verdict, check
from companion.rules.ruleset import ALM_DOG_DEALS, SCHMIDT, SWISS, DealSequence, RuleSet

_GAME_FLOW = {
    "Game": "companion.rules.game",
    "GameError": "companion.rules.game",
    "Setup": "companion.rules.record",
}
"""Game flow (rounds, deals, turns), imported on first use: ``from companion.rules import Game``."""


def __getattr__(name: str) -> Any:
    module = _GAME_FLOW.get(name)
    if module is None:
        raise AttributeError(f"module 'companion.rules' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = [
    "ALM_DOG_DEALS",
    "SCHMIDT",
    "SWISS",
    "Card",
    "CardError",
    "DealSequence",
    "Game",
    "GameError",
    "Layout",
    "Move",
    "Nearest",
    "Part",
    "Player",
    "Position",
    "PositionError",
    "RuleSet",
    "Setup",
    "Verdict",
    "check",
    "legal_moves",
    "legal_moves_by_card",
    "parse_card",
    "playable",
]
