"""Games of 2, 3 and 5 players (Schmidt, no teams) played through the camera.

The seats nobody plays stay empty on the board and every player starts with a marble on its
start field: the rendered frames → `vision.reader.BoardReader` → `Stabilizer` → `Table`
path must read such boards at rest, so that every move is seen and judged. Each player has
five marbles and a kennel four holes: a marble knocked out while its kennel's holes are full
is put beside the kennel (`companion.sim.holes`), where the camera does not look, and the
table counts it in the kennel all the same.
"""

from __future__ import annotations

import pytest

from companion.rules import Position, RuleSet
from companion.sim.bots import HeuristicBot
from companion.sim.client import LocalTable
from companion.sim.conductor import Conductor
from companion.sim.holes import beside
from companion.sim.pipeline import FramePipeline
from companion.sim.virtual import VirtualTable
from companion.table import Table
from hw import load_profile
from vision.render import RenderConditions

pytestmark = pytest.mark.slow

FRAMES = RenderConditions(width=640, height=480, noise_sigma=1.5, jpeg_quality=90)
TURNS = 8


@pytest.mark.parametrize(("board", "players", "seed", "beside_full"), [
    ("brandi-4", 2, 21, False),
    ("brandi-4", 3, 22, False),
    ("brandi-6", 2, 21, False),
    ("brandi-6", 5, 2, True),  # turn 3 knocks green out into its full kennel, turn 7 takes
])                             # a marble out of that kennel
def test_moves_of_a_game_without_teams_are_accepted_through_the_camera(
        board: str, players: int, seed: int, beside_full: bool) -> None:
    profile = load_profile(board)
    virtual = VirtualTable(profile, conditions=FRAMES, fps=5, speed=4, seed=seed)
    table = Table(profile, clock=lambda: virtual.now)
    pipeline = FramePipeline(table, virtual)
    bots = [HeuristicBot(seed + i) for i in range(players)]
    conductor = Conductor(LocalTable(table), virtual, bots, RuleSet.from_json("schmidt"),
                          seed=seed, cheat=0.0, pump=pipeline.step)
    conductor.start()
    assert pipeline.reader is not None
    assert len(pipeline.reader.colours) == players
    beside_kennels = [beside(seat) for seat in range(profile.seats)]
    marbles_beside = []
    for _ in range(TURNS):
        conductor.turn()
        marbles_beside.append(sum(virtual.holes[spot] is not None for spot in beside_kennels))
        position = Position.from_json(conductor.client.state()["position"])
        assert conductor.hole_map.holes(position, virtual.holes) == virtual.holes
    if beside_full:  # put there, and later taken out first
        assert max(marbles_beside) > 0 and marbles_beside[-1] == 0
    else:
        assert max(marbles_beside) == 0
    plays = [turn for turn in conductor.turns if turn.kind == "play"]
    assert len(plays) >= TURNS // 2
    assert all(turn.judged is not None and not turn.false_illegal for turn in plays)
    state = conductor.client.state()
    assert state["moves"] == len(plays)
    final = Position.from_json(state["position"])
    assert final.same_locations(conductor.game.position)
    assert conductor.hole_map.holes(final, virtual.holes) == virtual.holes
