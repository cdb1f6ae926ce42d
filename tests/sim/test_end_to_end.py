"""End to end: bots play through rendered frames → vision → table → rules.

The virtual table renders every frame (hands over the board, light drifting), the real
`vision.reader.BoardReader` and `vision.stabilize.Stabilizer` read it, the real
`companion.table.Table` referees through its public camera side
(:class:`companion.sim.pipeline.FramePipeline`, the camera loop's steps frame by frame).
Games are fast-forwarded by hand entry to a late position and then played to the end through
the camera, so that each case takes well under a minute.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from companion.rules import Card, Game, Position, RuleSet
from companion.rules.record import Exchange
from companion.sim.bots import HeuristicBot
from companion.sim.cheats import CheatKind, plan_cheat
from companion.sim.client import LocalTable
from companion.sim.conductor import Conductor, Turn
from companion.sim.pipeline import FramePipeline
from companion.sim.virtual import VirtualTable
from companion.table import Table
from hw import load_profile
from vision.render import RenderConditions

pytestmark = pytest.mark.slow

FRAMES = RenderConditions(width=640, height=480, noise_sigma=1.5, jpeg_quality=90)

EXPECTED_CODES: dict[CheatKind, set[str] | None] = {
    CheatKind.WRONG_DISTANCE: {"wrong_distance", "no_forward_way"},
    CheatKind.WRONG_CARD: None,  # whatever the other card's move breaks
    CheatKind.PASSED_LEFT_STANDING: {"passed_left_standing"},
    CheatKind.KNOCKED_LEFT_STANDING: {"landed_on_left_standing"},
    CheatKind.PASSED_PROTECTED: {"protected_passed"},
    CheatKind.HOME_FROM_START: {"home_entry_fresh", "home_entry_from_behind"},
    CheatKind.WRONG_COLOUR: {"other_player_moved", "partner_too_early"},
    CheatKind.FALSE_FOLD: None,  # refused before anything moves (409 naming the card)
}


def make_conductor(board: str, rules: str, seed: int, cheat: float,
                   kinds: list[CheatKind] | None = None,
                   players: int | None = None) -> tuple[Conductor, FramePipeline]:
    profile = load_profile(board)
    virtual = VirtualTable(profile, conditions=FRAMES, fps=5, speed=4, seed=seed)
    table = Table(profile, clock=lambda: virtual.now)
    pipeline = FramePipeline(table, virtual)
    bots = [HeuristicBot(seed + i) for i in range(players or profile.seats)]
    conductor = Conductor(LocalTable(table), virtual, bots, RuleSet.from_json(rules), seed=seed,
                          cheat=cheat, pump=pipeline.step, cheat_kinds=kinds)
    conductor.start()
    return conductor, pipeline


def late(game: Game) -> bool:
    """A team (or a player without partners) has all its marbles home but one."""
    position = game.position
    return any(sum(position.home_count(p) for p in team) >= 4 * len(team) - 1
               for team in position.layout.teams)


def strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def assert_flagged(turn: Turn) -> None:
    """A cheat was caught, with a reason code of its kind that names its marble."""
    kind = CheatKind(turn.kind)
    assert turn.caught, f"missed: {turn}"
    assert turn.subject is not None
    if kind is CheatKind.FALSE_FOLD:
        assert turn.refusal is not None and f"can play {turn.subject}" in turn.refusal
        return
    verdict = turn.verdict
    assert verdict is not None and verdict["legal"] is False
    codes = EXPECTED_CODES[kind]
    assert verdict["code"], verdict
    if codes is not None:
        assert verdict["code"] in codes, (kind, verdict["code"], verdict["reason"])
    colour, field = turn.subject.split("@")
    named = {text.rstrip("*") for text in strings(verdict["args"])}
    assert colour in named, (turn.subject, verdict["args"])
    if kind is not CheatKind.WRONG_CARD:
        assert field in named, (turn.subject, verdict["args"])


def assert_nothing_recorded_under_a_hand(pipeline: FramePipeline) -> None:
    for entry in pipeline.log:
        if entry.changed:
            assert not entry.hand, f"the table changed at {entry.timestamp} under a hand"


def assert_board_is_the_truth(conductor: Conductor) -> None:
    state = conductor.client.state()
    final = Position.from_json(state["position"])
    assert final.same_locations(conductor.game.position)
    truth = conductor.virtual.holes
    believed = conductor.hole_map.holes(final, truth)
    assert believed == truth


@pytest.mark.parametrize(("board", "rules", "seed"), [
    ("brandi-4", "swiss", 1), ("brandi-4", "schmidt", 2),
    ("brandi-6", "swiss", 3), ("brandi-6", "schmidt", 4)])
def test_a_game_to_the_end_through_the_camera(board: str, rules: str, seed: int) -> None:
    conductor, pipeline = make_conductor(board, rules, seed, cheat=0.35)
    conductor.fast_forward(late)
    conductor.play(max_turns=150)
    assert conductor.over
    state = conductor.client.state()
    assert state["phase"] == "over"
    assert state["winners"] == list(conductor.game.winners or ())
    turns = conductor.turns
    assert not [t for t in turns if t.false_illegal], "legal moves called illegal"
    plays = [t for t in turns if t.kind == "play"]
    assert plays and all(t.judged is not None for t in plays)
    cheats = [t for t in turns if t.kind not in ("play", "fold")]
    assert cheats
    for turn in cheats:
        assert_flagged(turn)
    assert_nothing_recorded_under_a_hand(pipeline)
    assert_board_is_the_truth(conductor)


@pytest.mark.parametrize(("board", "players", "seed"), [
    ("brandi-4", 2, 21), ("brandi-4", 3, 22), ("brandi-6", 5, 23)])
def test_a_game_without_teams_to_the_end_by_hand_entry(board: str, players: int,
                                                       seed: int) -> None:
    """2, 3 and 5 players: "cannot play" discards and draws a card first; the dealt game
    and the table stay in step to the winner. (By hand entry, to test the dealing and the
    table alone; 2- and 3-player games through the camera are tested in
    tests/sim/test_camera_without_teams.py, see docs/sim.md.)"""
    conductor, _ = make_conductor(board, "schmidt", seed, cheat=0.0, players=players)
    game = conductor.game
    assert not game.team_game
    conductor.fast_forward(lambda game: game.over or (
        game.phase.value == "play" and game.redrawn))
    assert game.redrawn, "no redraw happened in this game"
    state = conductor.client.state()
    assert state["redrawn"] is True and list(state["counts"]) == list(game.counts)
    conductor.fast_forward(lambda game: game.over)
    state = conductor.client.state()
    assert state["phase"] == "over" and len(state["winners"]) == 1
    assert state["winners"] == list(game.winners or ())
    assert Position.from_json(state["position"]).same_locations(game.position)
    with pytest.raises(ValueError, match="team games"):
        conductor.take_seat(0)


def applicable(conductor: Conductor, kind: CheatKind) -> Callable[[Game], bool]:
    """Whether the player to move could make this kind of cheat now."""
    rng = random.Random(0)

    def check(game: Game) -> bool:
        hands = game.hands
        if game.turn is None or hands is None or game.phase.value != "play":
            return False
        hand = hands[game.turn]
        decision = conductor.bots[game.turn].decide(game.position, hand)
        return plan_cheat(game.position, hand, decision.card, decision.move, rng,
                          [kind]) is not None

    return check


@pytest.mark.parametrize("kind", list(CheatKind), ids=[kind.value for kind in CheatKind])
def test_every_kind_of_cheat_is_caught_through_the_camera(kind: CheatKind) -> None:
    rules = "schmidt" if kind is CheatKind.PASSED_PROTECTED else "swiss"
    conductor, pipeline = make_conductor("brandi-4", rules, 11, cheat=1.0, kinds=[kind])
    conductor.fast_forward(applicable(conductor, kind))
    assert not conductor.over, f"no chance for {kind.value} in this game"
    turn = conductor.turn()
    assert turn.kind == kind.value
    assert_flagged(turn)
    assert not turn.false_illegal
    assert_nothing_recorded_under_a_hand(pipeline)
    assert_board_is_the_truth(conductor)


def test_a_board_put_right_at_once_is_not_judged_under_the_hand() -> None:
    conductor, pipeline = make_conductor("brandi-4", "swiss", 11, cheat=0.0)
    conductor.fast_forward(lambda game: len(game.events) > 40)
    game = conductor.game
    assert game.turn is not None and game.hands is not None
    hand = game.hands[game.turn]
    decision = conductor.bots[game.turn].decide(game.position, hand)
    cheat = plan_cheat(game.position, hand, decision.card, decision.move, random.Random(1),
                       [CheatKind.WRONG_DISTANCE])
    assert cheat is not None and cheat.card is not None and cheat.after is not None
    assert cheat.honest is not None
    conductor.client.announce(str(cheat.card), game.turn)
    virtual = conductor.virtual
    virtual.arrange(conductor.hole_map, cheat.after)
    while virtual.busy:
        pipeline.step()
    for _ in range(3):  # the wrong board has settled; the table waits its settle time
        pipeline.step()
    virtual.timing = virtual.base_timing  # a calm hand puts it right at once
    virtual.arrange(conductor.hole_map, cheat.honest.result)
    for _ in range(40):
        pipeline.step()
    assert_nothing_recorded_under_a_hand(pipeline)


def test_a_person_chooses_the_card_passed_in_the_exchange() -> None:
    conductor, pipeline = make_conductor("brandi-4", "swiss", 5, cheat=0.0)
    conductor.fast_forward(lambda game: game.phase.value == "deal")
    game = conductor.game
    starter = (game.setup.first_dealer + game.round + 1) % game.players  # of the next round
    person = (starter + 1) % game.players
    conductor.take_seat(person)
    with pytest.raises(ValueError, match="no exchange"):
        conductor.give_for(person, "A")

    def no_bot(*args: object) -> Card:
        raise AssertionError("the person's bot chose the card")

    conductor.bots[person].give = no_bot  # type: ignore[method-assign,assignment]
    chosen: list[str] = []

    def pump() -> None:     # the person chooses while the conductor waits
        if not chosen and conductor.exchange_due(person):
            hand = conductor.hand(person)
            with pytest.raises(ValueError, match="does not hold"):
                conductor.give_for(person, next(c for c in ("A", "K", "2") if c not in hand))
            chosen.append(hand[-1])
            conductor.give_for(person, chosen[0])
        pipeline.step()

    conductor.pump = pump
    turn = conductor.turn()
    assert chosen and turn.player == starter
    exchange = next(e for e in reversed(game.events) if isinstance(e, Exchange))
    assert exchange.given is not None and str(exchange.given[person]) == chosen[0]
