"""Seeded random self-play: whole games played by random players, with invariant checks.

Every player picks a random playable card and a random legal move of it; with probability
``greed`` it picks instead the move that best advances its team (pegs nearer home, opponents'
pegs knocked out), so that games end in a reasonable number of rounds. After every event the
invariants of :func:`check_invariants` are checked. The same seed always plays the same game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.rules.board import FRESH
from companion.rules.cards import Card
from companion.rules.deck import DECK_SIZE
from companion.rules.game import Game, Phase
from companion.rules.move import Move
from companion.rules.position import Position
from companion.rules.record import Deal, Event, Fold, Play, Redraw, Setup
from companion.rules.ruleset import RuleSet

COLORS = ("red", "yellow", "green", "blue", "white", "black")


class InvariantError(AssertionError):
    """A game state broke an invariant of the rules (a bug in the engine or the game flow)."""


class SelfPlayError(RuntimeError):
    """A self-played game did not end within the allowed number of rounds."""


def play_game(
    rules: RuleSet,
    players: int = 4,
    board: int = 4,
    seed: int = 0,
    *,
    greed: float = 0.8,
    max_rounds: int = 500,
    checked: bool = True,
) -> Game:
    """Play one whole game and return it (it is over, with a winner).

    Players sit spread over the board (2 players on a 4-seat board face each other). With
    ``checked`` every event is followed by :func:`check_invariants`.
    """
    rng = random.Random(f"dog self-play {seed}")
    seats = spread_seats(players, board)
    setup = Setup.new(
        rules, board, COLORS[:players], seats, first_dealer=rng.randrange(players), seed=seed
    )
    game = Game(setup)
    while not game.over:
        if game.round > max_rounds:
            raise SelfPlayError(f"seed {seed}: no winner after {max_rounds} rounds")
        before = Snapshot.of(game)
        event = play_step(game, rng, greed)
        if checked:
            check_invariants(before, game, event)
    return game


def spread_seats(players: int, board: int) -> list[int]:
    """Seat positions for ``players`` spread evenly round a board of ``board`` seats."""
    if players == board:
        return list(range(players))
    if players == 4 and board == 6:
        return [0, 1, 3, 4]
    return [i * board // players for i in range(players)]


def play_step(game: Game, rng: random.Random, greed: float) -> Event:
    """Make the next event of a full-mode game with random choices."""
    hands = game.hands
    if hands is None:
        raise ValueError("self-play needs a game that knows the hands (a seeded game)")
    if game.phase is Phase.DEAL:
        return game.deal()
    if game.phase is Phase.EXCHANGE:
        return game.exchange([rng.choice(hand) for hand in hands])
    player = game.turn
    assert player is not None
    hand = hands[player]
    playable = [card for card in dict.fromkeys(hand) if game.legal_moves(card)]
    if playable:
        if rng.random() < greed:
            card, move = best_move(game.position, playable, game.legal_moves)
        else:
            card = rng.choice(playable)
            move = rng.choice(game.legal_moves(card))
        return game.play(card, move.result)
    if game.team_game:
        return game.fold()
    if not game.redrawn:
        return game.redraw(rng.choice(hand))
    return game.fold([rng.choice(hand)])


def best_move(
    position: Position, cards: Sequence[Card], moves_of: Callable[[Card], list[Move]]
) -> tuple[Card, Move]:
    """The card and move that leave the mover's team furthest ahead (first one on ties).

    A Joker is played only when no other card does as well.
    """
    team = position.team_of(position.turn)
    best: tuple[float, bool] | None = None
    choice: tuple[Card, Move] | None = None
    for card in cards:
        for move in moves_of(card):
            score = (advantage(move.result, team), card is not Card.JOKER)
            if best is None or score > best:
                best, choice = score, (card, move)
    assert choice is not None
    return choice


def advantage(position: Position, team: Sequence[int]) -> float:
    """How far ``team``'s pegs have come, minus half of how far everybody else's have."""
    total = 0.0
    for index in range(position.layout.players):
        total += progress(position, index) * (1.0 if index in team else -0.5)
    return total


def progress(position: Position, player: int) -> int:
    """How far a player's pegs have come: steps from the start field, more in the home."""
    layout = position.layout
    track, start = layout.track_len, layout.starts[player]
    total = 0
    for code in position.codes[player]:
        if code == FRESH:
            total += 1
        elif 0 <= code < track:
            total += (code - start) % track + 1
        elif code >= track:
            total += code + 1
    return total


@dataclass(frozen=True)
class Snapshot:
    """What :func:`check_invariants` compares a game against: its state before an event."""

    position: Position
    counts: tuple[int, ...]
    round: int

    @classmethod
    def of(cls, game: Game) -> Snapshot:
        """The part of ``game``'s state that an event may change."""
        return cls(game.position, game.counts, game.round)


def check_invariants(before: Snapshot, game: Game, event: Event) -> None:
    """Raise :class:`InvariantError` if ``event`` took ``before`` to a state breaking a rule.

    Pegs are conserved and never share a field; only a play moves pegs, and then the homes of
    the other team stay as they were and no peg leaves a home; the cards add up to the deck;
    the dealer, the starter and the turn order are right; the game ends exactly with a winner.
    """
    _check_pegs(game)
    _check_moved_pegs(before, game, event)
    _check_cards(before, game, event)
    _check_turn(before, game, event)


def _check_pegs(game: Game) -> None:
    start, now = game.setup.start, game.position
    track: set[str] = set()
    for index, player in enumerate(now.players):
        if len(player.pegs) != len(start.players[index].pegs):
            raise InvariantError(f"{player.color} has {len(player.pegs)} pegs")
        homes = [peg for peg in player.pegs if peg.startswith("H")]
        if len(set(homes)) != len(homes):
            raise InvariantError(f"two of {player.color}'s pegs share a home field: {homes}")
        for peg in player.pegs:
            if peg.startswith("T"):
                field = peg.rstrip("*")
                if field in track:
                    raise InvariantError(f"two pegs on {field}")
                track.add(field)


def _check_moved_pegs(before: Snapshot, game: Game, event: Event) -> None:
    after = game.position
    if not isinstance(event, Play):
        if not before.position.same_locations(after):
            raise InvariantError(f"{type(event).__name__} moved pegs")
        return
    team = before.position.team_of(event.player)
    for index, player in enumerate(after.players):
        homes_before = _homes(before.position, index)
        homes_after = _homes(after, index)
        if index not in team and homes_before != homes_after:
            raise InvariantError(
                f"{player.color}'s home changed by an opponent's move: {event.notation}"
            )
        if len(homes_after) < len(homes_before):
            raise InvariantError(f"a peg of {player.color} left its home: {event.notation}")


def _homes(position: Position, player: int) -> list[str]:
    return sorted(peg for peg in position.players[player].pegs if peg.startswith("H"))


def _check_cards(before: Snapshot, game: Game, event: Event) -> None:
    hands, deck, counts = game.hands, game.deck, game.counts
    assert hands is not None and deck is not None
    if [len(hand) for hand in hands] != list(counts):
        raise InvariantError(f"card counts {counts} differ from the hands")
    total = sum(counts) + deck.stack_size + len(deck.discards)
    if total != DECK_SIZE:
        raise InvariantError(f"{total} cards in hands, stack and discard pile, not {DECK_SIZE}")
    expected = list(before.counts)
    if isinstance(event, Deal):
        expected = [event.cards] * game.players
    elif isinstance(event, Play):
        expected[event.player] -= 1
    elif isinstance(event, Fold):
        expected[event.player] = 0 if game.team_game else expected[event.player] - 1
    if isinstance(event, (Play, Fold, Redraw)) and before.counts[event.player] == 0:
        raise InvariantError(f"player {event.player} moved without cards")
    if list(counts) != expected:
        raise InvariantError(
            f"after {type(event).__name__} the counts are {counts}, not {expected}"
        )
    for player in game.folded:
        if counts[player]:
            raise InvariantError(f"player {player} folded but holds {counts[player]} cards")


def _check_turn(before: Snapshot, game: Game, event: Event) -> None:
    n = game.players
    if isinstance(event, Deal):
        dealer = (game.setup.first_dealer + before.round) % n
        if (game.round, game.dealer, game.turn) != (before.round + 1, dealer, (dealer + 1) % n):
            raise InvariantError(
                f"round {game.round} dealt by {game.dealer}, starting with {game.turn}"
            )
        return
    if not isinstance(event, (Play, Fold, Redraw)):
        return
    if game.over:
        winner = game.position.winner()
        if winner is None or game.winners != winner or game.turn is not None:
            raise InvariantError(f"game over without a winner: {game.position}")
        return
    if game.position.winner() is not None:
        raise InvariantError(f"the game goes on although {game.position.winner()} won")
    if isinstance(event, Redraw):
        expected: int | None = event.player
    else:
        after_mover = [(event.player + k) % n for k in range(1, n + 1)]
        expected = next((p for p in after_mover if game.counts[p] > 0), None)
    if game.turn != expected:
        raise InvariantError(f"after player {event.player}, turn is {game.turn}, not {expected}")
    if expected is not None and game.position.turn != expected:
        raise InvariantError(f"the position's turn {game.position.turn} is not {expected}")
