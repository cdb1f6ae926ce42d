"""Bots and cheats on the rules engine alone: legal choices, sensible play, verified cheats."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from companion.rules import SCHMIDT, SWISS, Card, Game, Move, Position, RuleSet, check
from companion.rules.game import fold_check
from companion.rules.record import Play
from companion.sim.bots import HeuristicBot, RandomBot, make_bot
from companion.sim.cheats import CheatKind, plan_cheat
from companion.sim.match import play_match

COLOURS = ["red", "yellow", "green", "blue"]


def position(pegs: list[list[str]], rules: str = "swiss", turn: int = 0) -> Position:
    players = [{"color": colour, "pegs": p} for colour, p in zip(COLOURS, pegs, strict=True)]
    return Position.from_json({"rules": rules, "board": 4, "players": players, "turn": turn})


@pytest.mark.parametrize("rules", [SWISS, SCHMIDT], ids=["swiss", "schmidt"])
def test_bots_play_whole_games_legally(rules: RuleSet) -> None:
    """Every turn a bot chooses is accepted by the game (Game.play checks it); games end."""
    for seed in range(3):
        bots = [HeuristicBot(seed), RandomBot(seed), HeuristicBot(seed), RandomBot(seed)]
        result = play_match(bots, rules, 4, seed)
        assert result.game.over
        assert result.plays > 20


def test_six_players_on_the_six_seat_board() -> None:
    bots = [make_bot("heuristic", 5) for _ in range(6)]
    result = play_match(bots, SWISS, 6, 5)
    assert len(result.winners) == 2  # three teams of two partners


def test_same_seed_same_game() -> None:
    first = play_match([RandomBot(1) for _ in range(4)], SWISS, 4, 9)
    again = play_match([RandomBot(1) for _ in range(4)], SWISS, 4, 9)
    assert first.game.record() == again.game.record()


def test_heuristic_team_beats_random_team() -> None:
    wins = 0
    for seed in range(10):
        side = seed % 2
        bots = [HeuristicBot(seed) if s % 2 == side else RandomBot(seed) for s in range(4)]
        wins += play_match(bots, SWISS, 4, seed).winners[0] % 2 == side
    assert wins >= 9


def test_heuristic_enters_home_rather_than_running_on() -> None:
    # red at T62: a 3 turns into the home (T63, T0, H0); a 10 would run on along the track.
    before = position([["T62", "K", "K", "K"], ["K"] * 4, ["K"] * 4, ["K"] * 4])
    decision = HeuristicBot().decide(before, [Card.THREE, Card.TEN])
    assert decision.move is not None
    assert decision.move.notation == "3: red T62→H0"


def test_heuristic_knocks_out_an_opponent() -> None:
    before = position([["T10", "K", "K", "K"], ["T15", "K", "K", "K"], ["K"] * 4, ["K"] * 4])
    decision = HeuristicBot().decide(before, [Card.FIVE, Card.SIX])
    assert decision.card is Card.FIVE
    assert decision.move is not None and decision.move.knocked_out == (("yellow", "T15"),)


def test_heuristic_keeps_the_seven_when_another_card_does_as_well() -> None:
    before = position([["T10", "K", "K", "K"], ["K"] * 4, ["K"] * 4, ["K"] * 4])
    decision = HeuristicBot().decide(before, [Card.SEVEN, Card.EIGHT])
    assert decision.card is Card.EIGHT


def test_heuristic_passes_a_start_card_to_a_partner_stuck_in_the_kennel() -> None:
    before = position([["T10", "K", "K", "K"], ["K"] * 4, ["K"] * 4, ["K"] * 4])
    gift = HeuristicBot().give(before, [Card.ACE, Card.FIVE, Card.TWO], receiver=2)
    assert gift is Card.ACE


def test_heuristic_moves_the_partner_once_home() -> None:
    before = position([["H0", "H1", "H2", "H3"], ["K"] * 4, ["T40", "K", "K", "K"], ["K"] * 4])
    decision = HeuristicBot().decide(before, [Card.FIVE])
    assert decision.move is not None and "green T40→T45" in decision.move.notation


def test_unknown_bot_is_named() -> None:
    with pytest.raises(ValueError, match="'clever'"):
        make_bot("clever")


def _turns(rules: RuleSet, seed: int) -> Iterator[tuple[Position, tuple[Card, ...], Card, Move]]:
    """(position, hand, card, move) of every play of a seeded heuristic game."""
    played = play_match([HeuristicBot(seed) for _ in range(4)], rules, 4, seed).game
    replay = Game(played.setup)
    for event in played.events:
        if isinstance(event, Play):
            assert replay.hands is not None and replay.turn is not None
            before = replay.position
            move = check(before, event.position, event.card).move
            assert move is not None
            yield before, replay.hands[replay.turn], event.card, move
        replay.apply(event)


@pytest.mark.parametrize("rules", [SWISS, SCHMIDT], ids=["swiss", "schmidt"])
def test_every_cheat_kind_occurs_and_is_illegal(rules: RuleSet) -> None:
    rng = random.Random(3)
    seen: Counter[CheatKind] = Counter()
    for seed in (3, 4):
        for before, hand, card, move in _turns(rules, seed):
            for kind in CheatKind:
                cheat = plan_cheat(before, hand, card, move, rng, [kind])
                if cheat is None:
                    continue
                seen[kind] += 1
                if kind is CheatKind.FALSE_FOLD:
                    assert not fold_check(before, cheat.hand).justified
                    continue
                assert cheat.card is not None and cheat.after is not None
                assert cheat.card in hand
                assert not check(before, cheat.after, cheat.card).legal
                assert not cheat.after.same_locations(before)
                assert cheat.honest is not None
                assert check(before, cheat.honest.result, cheat.card).legal
    assert set(seen) == set(CheatKind)


def test_no_cheat_instead_of_a_fold() -> None:
    before = position([["K"] * 4] * 4)
    assert plan_cheat(before, [Card.FIVE], None, None, random.Random(0)) is None
