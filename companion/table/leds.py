"""What the LED strip shows at each moment of the game, as `firmware_bridge.effects` scenes.

- waiting for a card: the player to move's start field glowing in their colour;
- a card announced: its legal targets (each marble's reach in its own shade for a 7, the
  Jack's candidates pulsing, the start field pulsing for a start);
- an illegal move, a bumped marble or a takeback to carry out: red blinking where a marble is
  wrong, green where one belongs;
- the game won: the winners' colours circling the track.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from companion.rules import Card, Move
from companion.table.board import BoardMap
from firmware_bridge import effects
from firmware_bridge.effects import Scene


class LedSink(Protocol):
    """Where scenes go: an `Animator` (or anything with its `play`)."""

    def play(self, scene: Scene) -> None: ...


@dataclass
class Lit:
    """The holes one card lights: plain targets, a 7's reach, Jack candidates, starts."""

    targets: dict[str, str] = field(default_factory=dict)
    reach: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    """7: mover colour → marble hole → reachable holes."""
    jack: dict[str, str] = field(default_factory=dict)
    starts: dict[int, str] = field(default_factory=dict)
    """Seat → colour of a start move."""
    entered: set[str] = field(default_factory=set)
    """The start fields a start move enters."""

    @property
    def holes(self) -> list[str]:
        """Every hole lit as a legal target, sorted."""
        lit = set(self.targets) | set(self.jack) | self.entered
        for marbles in self.reach.values():
            for reached in marbles.values():
                lit.update(reached)
        return sorted(lit)


def lit_by(moves: Iterable[Move], board: BoardMap) -> Lit:
    """The holes the legal moves of one card light."""
    lit = Lit()
    player_of = board.player_of_color
    for move in moves:
        for part in move.parts:
            mover = player_of[part.color]
            origin = board.hole_of(mover, part.origin)
            if part.swap_color is not None:
                other = player_of[part.swap_color]
                target = board.hole_of(other, part.target)
                for hole, color in ((origin, part.color), (target, part.swap_color)):
                    if hole is not None:
                        lit.jack[hole] = color
                continue
            target = board.hole_of(mover, part.target)
            if target is None:
                continue
            if origin is None:
                lit.starts[board.seats[mover]] = part.color
                lit.entered.add(target)
            elif move.as_card is Card.SEVEN:
                reach = lit.reach.setdefault(part.color, {}).setdefault(origin, [])
                if target not in reach:
                    reach.append(target)
            else:
                lit.targets[target] = part.color
    return lit


def card_scene(board: BoardMap, lit: Lit) -> Scene:
    """The scene of an announced card's legal targets."""
    profile = board.profile
    scenes = [effects.targets(profile, lit.targets)]
    for color, reach in lit.reach.items():
        scenes.append(effects.seven_reach(profile, reach, color))
    if lit.jack:
        scenes.append(effects.jack_candidates(profile, lit.jack))
    for seat, color in lit.starts.items():
        scenes.append(effects.start_move(profile, seat, color))
    return effects.overlay(*scenes)


def turn_scene(board: BoardMap, player: int) -> Scene:
    """The player to move: their start field glowing."""
    return effects.turn(board.profile, board.seats[player], board.colors[player])


def repair_scene(board: BoardMap, wrong: Sequence[str], expected: Sequence[str]) -> Scene:
    """Marbles to move: red where one is wrong, green where one belongs."""
    return effects.illegal_move(board.profile, wrong, expected)


def won_scene(board: BoardMap, winners: Sequence[int]) -> Scene:
    """The game is won."""
    return effects.game_won(board.profile, [board.colors[i] for i in winners])

