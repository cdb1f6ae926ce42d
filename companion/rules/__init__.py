"""The rules of Dog (Brändi Dog, Schmidt DOG®): a pure rules engine, stdlib only.

Value types (:class:`Card`, :class:`RuleSet`, :class:`Position`, :class:`Move`), the legal-move
generator, the referee's :func:`check` and its reasons (:func:`reason_text` renders a verdict's
reason code in German or English), and the game flow (:class:`Game`). No I/O, no imports from the
rest of the project.

>>> from companion.rules import Position, SWISS, Card, legal_moves
>>> start = Position.initial(SWISS, 4, ["red", "yellow", "green", "blue"])
>>> [move.notation for move in legal_moves(start, Card.ACE)]
['A: red K→T0*']
"""

from companion.rules.cards import Card, parse_card
from companion.rules.errors import CardError, PositionError
from companion.rules.game import Game, GameError
from companion.rules.move import Move, Part
from companion.rules.moves import legal_moves, legal_moves_by_card, playable
from companion.rules.position import Layout, Player, Position
from companion.rules.reasons import CATALOGUE, LANGUAGES, Reason, reason_text, rule_of
from companion.rules.record import Setup
from companion.rules.referee import Nearest, Verdict, check, unplayable_reason
from companion.rules.ruleset import ALM_DOG_DEALS, SCHMIDT, SWISS, DealSequence, RuleSet

__all__ = [
    "ALM_DOG_DEALS",
    "CATALOGUE",
    "LANGUAGES",
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
    "Reason",
    "RuleSet",
    "Setup",
    "Verdict",
    "check",
    "legal_moves",
    "legal_moves_by_card",
    "parse_card",
    "playable",
    "reason_text",
    "rule_of",
    "unplayable_reason",
]
