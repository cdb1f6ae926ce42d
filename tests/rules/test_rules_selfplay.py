"""Seeded random self-play: whole games to the end, invariants checked after every event.

The slow tests play 200 games with 4 players under each rule set, plus Schmidt games with 2, 3
and 5 players and 6 players on the 6-seat board. They are split in chunks so that
``pytest -n auto`` spreads them over the cores.
"""

from __future__ import annotations

import random

import pytest

from companion.rules.game import Game
from companion.rules.position import Position
from companion.rules.record import Setup
from companion.rules.ruleset import SCHMIDT, SWISS, RuleSet
from companion.rules.selfplay import (
    InvariantError,
    SelfPlayError,
    Snapshot,
    check_invariants,
    play_game,
    play_step,
    spread_seats,
)

CHUNK = 25


def play_many(rules: RuleSet, players: int, board: int, seeds: range) -> list[Game]:
    games = [play_game(rules, players, board, seed) for seed in seeds]
    for game in games:
        assert game.over and game.winners is not None
        winner = game.winners[0]
        assert game.position.finished(winner)
        assert game.winners == game.position.winner()
    return games


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(200 // CHUNK))
def test_selfplay_swiss_four_players_200_games(chunk: int) -> None:
    play_many(SWISS, 4, 4, range(chunk * CHUNK, (chunk + 1) * CHUNK))


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(200 // CHUNK))
def test_selfplay_schmidt_four_players_200_games(chunk: int) -> None:
    play_many(SCHMIDT, 4, 4, range(1000 + chunk * CHUNK, 1000 + (chunk + 1) * CHUNK))


@pytest.mark.slow
@pytest.mark.parametrize(("players", "board"), [(2, 4), (3, 4), (5, 6), (6, 6)])
def test_selfplay_schmidt_other_player_counts(players: int, board: int) -> None:
    play_many(SCHMIDT, players, board, range(2000, 2020))


@pytest.mark.slow
def test_selfplay_swiss_six_players() -> None:
    play_many(SWISS, 6, 6, range(3000, 3010))


def test_selfplay_reaches_a_winner() -> None:
    game = play_game(SWISS, seed=1)
    assert game.over and game.winners in {(0, 2), (1, 3)}
    assert game.round >= 1 and len(game.events) > 10


def test_selfplay_individual_game_has_a_single_winner() -> None:
    game = play_game(SCHMIDT, players=3, seed=2)
    assert game.over and game.winners is not None and len(game.winners) == 1


def test_selfplay_same_seed_same_game() -> None:
    first = play_game(SCHMIDT, players=2, seed=9)
    second = play_game(SCHMIDT, players=2, seed=9)
    assert first.record() == second.record()
    assert play_game(SCHMIDT, players=2, seed=10).record() != first.record()


def test_selfplay_gives_up_after_max_rounds() -> None:
    with pytest.raises(SelfPlayError, match="no winner after 2 rounds"):
        play_game(SWISS, seed=1, max_rounds=2)


def test_spread_seats_face_each_other() -> None:
    assert spread_seats(2, 4) == [0, 2]
    assert spread_seats(3, 4) == [0, 1, 2]
    assert spread_seats(4, 6) == [0, 1, 3, 4]
    assert spread_seats(5, 6) == [0, 1, 2, 3, 4]
    assert spread_seats(6, 6) == list(range(6))


# -- the invariant checks catch what they claim to ---------------------------------------------


def _game_in_play(seed: int = 3) -> tuple[Game, random.Random]:
    game = Game(Setup.new(SWISS, seed=seed))
    rng = random.Random(seed)
    play_step(game, rng, 1.0)  # deal
    play_step(game, rng, 1.0)  # exchange
    return game, rng


def test_invariants_catch_wrong_card_counts() -> None:
    game, rng = _game_in_play()
    before = Snapshot.of(game)
    event = play_step(game, rng, 1.0)
    check_invariants(before, game, event)
    lying = Snapshot(before.position, (6, 6, 5, 6), before.round)
    with pytest.raises(InvariantError, match="counts are"):
        check_invariants(lying, game, event)


def test_invariants_catch_wrong_dealer() -> None:
    game = Game(Setup.new(SWISS, seed=4))
    before = Snapshot.of(game)
    deal = game.deal()
    check_invariants(before, game, deal)
    one_round_later = Snapshot(before.position, before.counts, 1)
    with pytest.raises(InvariantError, match="round 1 dealt by 0, starting with 1"):
        check_invariants(one_round_later, game, deal)


def test_invariants_catch_pegs_moved_without_a_play() -> None:
    game, _ = _game_in_play()
    moved = Position.from_json(
        {
            "rules": "swiss",
            "board": 4,
            "players": [
                {"color": "red", "pegs": ["K", "K", "K", "T0*"]},
                {"color": "yellow", "pegs": ["K"] * 4},
                {"color": "green", "pegs": ["K"] * 4},
                {"color": "blue", "pegs": ["K"] * 4},
            ],
            "turn": 1,
        }
    )
    before = Snapshot(moved, game.counts, game.round)
    with pytest.raises(InvariantError, match="Exchange moved pegs"):
        check_invariants(before, game, game.events[-1])
