"""The game record ``dog-record/1``: header, one event per line, exact replay."""

from __future__ import annotations

import json
import random

import pytest

from companion.rules.cards import Card
from companion.rules.game import Game, GameError, HandError, IllegalMoveError
from companion.rules.moves import legal_moves
from companion.rules.position import Position
from companion.rules.record import (
    FORMAT,
    Deal,
    Event,
    Exchange,
    Fold,
    Play,
    RecordError,
    Redraw,
    Ruling,
    Setup,
    event_line,
    parse_event,
    parse_header,
)
from companion.rules.ruleset import ALM_DOG_DEALS, SCHMIDT, SWISS, RuleSet
from companion.rules.selfplay import play_step, spread_seats

COLORS = ("red", "yellow", "green", "blue", "white", "black")


def live_game(
    rules: RuleSet, players: int, board: int, seed: int
) -> tuple[Game, list[dict[str, object]]]:
    """A self-played game and its state after every event (index 0: before the first)."""
    game = Game(Setup.new(rules, board, COLORS[:players], spread_seats(players, board), seed=seed))
    rng = random.Random(seed)
    states = [game.state()]
    while not game.over:
        play_step(game, rng, greed=0.8)
        states.append(game.state())
    return game, states


@pytest.mark.parametrize(
    ("rules", "players", "board", "seed"),
    [(SWISS, 4, 4, 1), (SCHMIDT, 4, 4, 2), (SCHMIDT, 3, 4, 3), (SCHMIDT, 6, 6, 4)],
)
def test_replay_equals_live_game_at_every_prefix(
    rules: RuleSet, players: int, board: int, seed: int
) -> None:
    game, states = live_game(rules, players, board, seed)
    lines = game.record()
    assert len(lines) == len(states)
    replayed = Game(parse_header(lines[0]))
    assert replayed.state() == states[0]
    for number, line in enumerate(lines[1:], start=1):
        replayed.apply(parse_event(line))
        assert replayed.state() == states[number], f"after record line {number + 1}"
    for cut in (1, 2, 3, len(lines) // 2, len(lines)):
        assert Game.replay(lines[:cut]).state() == states[cut - 1]


def test_replay_writes_the_same_record() -> None:
    game, _ = live_game(SCHMIDT, 2, 4, 5)
    lines = game.record()
    assert Game.replay(lines).record() == lines
    assert Game.replay("\n".join(lines).splitlines()).record() == lines


def test_header_names_format_full_rules_board_players_seed() -> None:
    setup = Setup.new(SCHMIDT, 4, COLORS[:2], [0, 2], first_dealer=1, seed=42)
    header = json.loads(Game(setup).record()[0])
    assert header == {
        "format": FORMAT,
        "rules": {
            "base": "schmidt",
            "start_protection": "always",
            "home_entry": "from_behind",
            "deal_sequence": [6, 5, 4, 3, 2],
            "direction": "clockwise",
            "team_game": "teams_or_individual",
        },
        "board": 4,
        "players": [{"color": "red", "at": 0}, {"color": "yellow", "at": 2}],
        "first_dealer": 1,
        "seed": 42,
    }
    assert parse_header(json.dumps(header)) == setup


def test_a_deal_sequence_with_a_first_part_is_recorded_and_replayed() -> None:
    """ALM DOG deals (RULES.md section 7, seed 000) are stored in the header's rules; old
    records, whose deal_sequence is a list, keep meaning the plain cycle."""
    rules = RuleSet(deal_sequence=ALM_DOG_DEALS)
    game, _ = live_game(rules, 4, 4, 6)
    lines = game.record()
    header = json.loads(lines[0])
    assert header["rules"]["deal_sequence"] == {"first": [6], "cycle": [5, 4, 3, 2]}
    deals = [json.loads(line)["cards"] for line in lines if '"event":"deal"' in line]
    assert deals[:11] == [6, 5, 4, 3, 2, 5, 4, 3, 2, 5, 4]
    assert Game.replay(lines).state() == game.state()
    old = {**header, "rules": {**header["rules"], "deal_sequence": [6, 5, 4, 3, 2]}}
    assert parse_header(json.dumps(old)).start.rules == SWISS


def test_header_keeps_a_custom_start_and_stacked_deck() -> None:
    start = Position.from_json(
        {
            "rules": "swiss",
            "board": 4,
            "players": [
                {"color": color, "pegs": pegs}
                for color, pegs in zip(
                    COLORS, (["K", "K", "T5", "H0"], ["K"] * 4, ["K"] * 4, ["K"] * 4), strict=False
                )
            ],
            "turn": 0,
        }
    )
    setup = Setup(start, 3, 9, (Card.ACE, Card.SEVEN))
    header = json.loads(Game(setup).record()[0])
    assert header["deck_top"] == ["A", "7"]
    assert header["start"]["players"][0]["pegs"] == ["K", "K", "T5", "H0"]
    assert parse_header(json.dumps(header)) == setup


def test_referee_record_has_no_cards_and_replays() -> None:
    game = Game(Setup.new(SWISS, first_dealer=3))
    game.deal()
    game.exchange()
    game.play(Card.ACE, legal_moves(game.position, Card.ACE)[0].result)
    game.fold()
    lines = game.record()
    assert "seed" not in json.loads(lines[0])
    assert json.loads(lines[1]) == {"event": "deal", "round": 1, "dealer": 3, "cards": 6}
    assert json.loads(lines[2]) == {"event": "exchange"}
    assert json.loads(lines[3])["move"] == "A: red K→T0*"
    assert json.loads(lines[4]) == {"event": "fold", "player": 1}
    assert Game.replay(lines).state() == game.state()


def test_full_game_replays_in_referee_mode_without_the_cards() -> None:
    """The same table seen by a referee that never sees a card ends in the same state."""
    game, _ = live_game(SCHMIDT, 3, 4, 6)
    blind = Game(Setup(game.setup.start, game.setup.first_dealer))
    for event in game.events:
        blind.apply(_secret(event))
    assert blind.over and blind.winners == game.winners
    assert blind.position == game.position and blind.counts == game.counts
    assert blind.round == game.round


def _secret(event: Event) -> Event:
    if isinstance(event, Deal):
        return Deal(event.round, event.dealer, event.cards)
    if isinstance(event, Exchange):
        return Exchange()
    if isinstance(event, Redraw):
        return Redraw(event.player)
    if isinstance(event, Fold):
        return Fold(event.player)
    return event


def test_every_event_type_round_trips_as_a_line() -> None:
    position = Position.initial(SWISS, 4, COLORS[:4])
    events: list[Event] = [
        Deal(1, 0, 6, ((Card.ACE,) * 6,) * 4),
        Deal(2, 1, 5),
        Exchange((Card.ACE, Card.KING, Card.JOKER, Card.TWO)),
        Exchange(),
        Play(1, Card.SEVEN, position, "7: …"),
        Redraw(2, Card.TEN, Card.QUEEN),
        Redraw(2),
        Fold(0, (Card.TWO, Card.THREE)),
        Fold(0),
        Ruling(3, Card.FOUR, position),
        Ruling(3, None, position),
    ]
    for event in events:
        assert parse_event(event_line(event)) == event


def _with_pegs(position: Position, player: int, pegs: list[str]) -> Position:
    data = position.to_json()
    data["players"][player]["pegs"] = pegs
    return Position.from_json(data)


def test_a_ruling_ends_the_turn_as_the_referee_says_and_replays() -> None:
    """The referee's word (docs/game-record.md#rulings): a board the rules refuse counts as
    played; the card leaves the hand; the record replays to the same state."""
    game = Game(Setup.new(SWISS, first_dealer=3))
    game.deal()
    game.exchange()
    refused = _with_pegs(game.position, 0, ["K", "K", "K", "T5"])
    with pytest.raises(IllegalMoveError):
        game.play(Card.ACE, refused)
    ruling = game.rule(Card.ACE, refused)
    assert ruling == Ruling(0, Card.ACE, refused.with_turn(0))
    assert game.turn == 1 and game.counts[0] == 5
    assert game.position.players[0].pegs == ("K", "K", "K", "T5")
    game.rule(None, _with_pegs(game.position, 1, ["K", "K", "K", "T20"]))
    assert game.turn == 2 and game.counts[1] == 6  # the board was set, no card played
    lines = game.record()
    assert [json.loads(line)["event"] for line in lines[-2:]] == ["ruling", "ruling"]
    assert "card" not in json.loads(lines[-1])
    assert Game.replay(lines).state() == game.state()


def test_a_ruling_of_another_game_or_out_of_turn_is_refused() -> None:
    game = Game(Setup.new(SWISS, first_dealer=3))
    game.deal()
    game.exchange()
    before = game.state()
    other = Position.initial(SCHMIDT, 4, COLORS[:4])
    with pytest.raises(GameError, match="not of this game"):
        game.rule(Card.ACE, other)
    with pytest.raises(GameError, match="turn"):
        game.rule(Card.ACE, game.position, player=2)
    assert game.state() == before


def test_tampered_deal_is_refused_with_its_line_number() -> None:
    game, _ = live_game(SWISS, 4, 4, 7)
    lines = game.record()
    deal = json.loads(lines[1])
    deal["hands"][0][0] = "JOKER" if deal["hands"][0][0] != "JOKER" else "A"
    lines[1] = json.dumps(deal)
    with pytest.raises(HandError, match="record line 2: the dealt hands differ"):
        Game.replay(lines)


def test_illegal_play_in_a_record_is_refused_with_its_line_number() -> None:
    game, _ = live_game(SWISS, 4, 4, 8)
    lines = game.record()
    number = next(i for i, line in enumerate(lines) if '"event":"play"' in line)
    play = json.loads(lines[number])
    play["position"] = json.loads(lines[number - 1]).get("position", play["position"])
    play["position"]["players"][0]["pegs"] = ["K", "K", "K", "H3"]
    lines[number] = json.dumps(play)
    with pytest.raises(IllegalMoveError, match=f"record line {number + 1}: player"):
        Game.replay(lines)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("", "empty record"),
        ("[]", "header: expected a JSON object"),
        ('{"format": "dog-record/2"}', "format must be 'dog-record/1'"),
        ('{"format": "dog-record/1", "rules": "swiss"}', "header: missing key 'players'"),
        ("{nope", "header: not JSON"),
    ],
)
def test_bad_header_is_refused(line: str, message: str) -> None:
    with pytest.raises((RecordError, GameError), match=message):
        Game.replay([line] if line else [])


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"event": "shuffle"}', "unknown event 'shuffle'"),
        ('{"event": "deal", "round": 1}', "deal event: missing key 'dealer'"),
        ('{"event": "play", "player": 0, "card": "X"}', 'play event: .*"X" is not a Dog card'),
    ],
)
def test_bad_event_line_is_refused_with_its_line_number(line: str, message: str) -> None:
    header = Game(Setup.new(SWISS)).record()[0]
    with pytest.raises(RecordError, match=f"record line 2: {message}"):
        Game.replay([header, line])
