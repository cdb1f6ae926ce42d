"""Game flow: RULES.md sections 7 (turns, rounds, folding) and 8 (2, 3 and 5 players).

Each rule clause has a test named after it (``test_s7_…``, ``test_s8_…``); then the errors every
event can raise, with the game left unchanged, and the two modes (full and referee).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest

from companion.rules.cards import Card, parse_card
from companion.rules.deck import DECK_SIZE, FULL_DECK, Deck
from companion.rules.game import (
    FoldError,
    Game,
    GameError,
    GameOverError,
    HandError,
    IllegalMoveError,
    Phase,
    PhaseError,
    TurnError,
    fold_check,
)
from companion.rules.moves import legal_moves
from companion.rules.position import Position
from companion.rules.record import Deal, Exchange, Setup
from companion.rules.ruleset import ALM_DOG_DEALS, SCHMIDT, SWISS, DealSequence, RuleSet
from companion.rules.selfplay import play_step

COLORS = ("red", "yellow", "green", "blue", "white", "black")
NOTHING_PLAYABLE = "2 3 5 6 8 9"  # at the start of a team game: no peg to move, no start card


def cards(text: str) -> list[Card]:
    return [parse_card(name) for name in text.split()]


def position(
    *pegs: str, rules: str = "swiss", turn: int = 0, board: int = 4, seats: Sequence[int] = ()
) -> Position:
    """A position from one string of peg locations per player, e.g. ``"K K T0* H1"``."""
    players = []
    for index, locations in enumerate(pegs):
        player: dict[str, object] = {"color": COLORS[index], "pegs": locations.split()}
        if seats:
            player["at"] = seats[index]
        players.append(player)
    return Position.from_json({"rules": rules, "board": board, "players": players, "turn": turn})


def dealt(start: Position, *hands: str, seed: int = 1) -> Game:
    """A full-mode game from ``start`` whose first round leaves these hands after the exchange.

    The player to move in ``start`` starts the round. The deck is stacked so that the deal plus
    the exchange (each player passes the last card of the receiver's wanted hand) give ``hands``.
    """
    n = len(start.players)
    dealer = (start.turn - 1) % n
    wanted = [cards(hand) for hand in hands]
    probe = Game(Setup(start, dealer, seed))
    given = [wanted[probe.receiver(i)][-1] for i in range(n)]
    to_deal = [[*wanted[i][:-1], given[i]] for i in range(n)]
    top = [to_deal[(start.turn + k) % n][c] for c in range(len(to_deal[0])) for k in range(n)]
    game = Game(Setup(start, dealer, seed, tuple(top)))
    game.deal()
    game.exchange(given)
    assert game.hands is not None
    assert [Counter(hand) for hand in game.hands] == [Counter(hand) for hand in wanted]
    return game


def team_start(turn: int = 0) -> Position:
    return Position.initial(SWISS, 4, COLORS[:4], turn=turn)


def referee(rules: RuleSet = SWISS, players: int = 4, board: int = 4, dealer: int = 0) -> Game:
    seats = list(range(players)) if players != 2 else [0, 2]
    return Game(Setup.new(rules, board, COLORS[:players], seats, first_dealer=dealer))


def fold_round(game: Game) -> None:
    """Referee mode, team game: everybody folds in turn until the round is over."""
    while game.turn is not None:
        game.fold()


# -- the deck ---------------------------------------------------------------------------------


def test_s1_deck_has_110_cards_two_decks_and_six_jokers() -> None:
    counts = Counter(FULL_DECK)
    assert len(FULL_DECK) == DECK_SIZE == 110
    assert counts[Card.JOKER] == 6
    assert all(counts[card] == 8 for card in Card if card is not Card.JOKER)


def test_s7_reshuffle_discard_pile_when_stack_runs_out() -> None:
    import random

    deck = Deck(random.Random(3))
    drawn = [deck.draw() for _ in range(DECK_SIZE)]
    assert Counter(drawn) == Counter(FULL_DECK) and deck.stack_size == 0
    deck.discard(drawn[:10])
    again = [deck.draw() for _ in range(10)]
    assert Counter(again) == Counter(drawn[:10])
    assert deck.stack_size == 0 and deck.discards == ()


def test_s7_reshuffle_in_a_game_keeps_all_110_cards() -> None:
    # Full mode, 4 players, everybody folds at once: a round uses 4 * size cards.
    game = Game(Setup.new(SWISS, seed=5))
    for _ in range(7):  # 24 + 20 + 16 + 12 + 8 = 80, then 24 more, then 20 more: reshuffle
        game.deal()
        assert game.hands is not None and game.deck is not None
        game.exchange([hand[0] for hand in game.hands])
        held = sum(game.counts)
        assert held + game.deck.stack_size + len(game.deck.discards) == DECK_SIZE
        _discard_everything(game)
    assert game.round == 7


def _discard_everything(game: Game) -> None:
    """Full mode: end the round quickly -- play a card when one is playable, else fold."""
    while game.turn is not None and not game.over:
        assert game.hands is not None
        hand = game.hands[game.turn]
        playable = [card for card in hand if game.legal_moves(card)]
        if playable:
            game.play(playable[0], game.legal_moves(playable[0])[0].result)
        else:
            game.fold()


# -- section 7: rounds and deals --------------------------------------------------------------


def deal_rounds(game: Game, rounds: int) -> list[tuple[int, tuple[int, ...]]]:
    """Play `rounds` rounds (deal, exchange, everyone folds): per round the cards dealt and
    the hand sizes right after the deal."""
    dealt = []
    for _ in range(rounds):
        cards = game.deal().cards
        dealt.append((cards, game.counts))
        game.exchange()
        fold_round(game)
    return dealt


def test_s7_deal_sequence_6_5_4_3_2_then_6_again() -> None:
    dealt = deal_rounds(referee(), 7)
    assert all(counts == (cards,) * 4 for cards, counts in dealt)
    assert [cards for cards, _ in dealt] == [6, 5, 4, 3, 2, 6, 5]


def test_s7_deal_sequence_comes_from_the_rule_set() -> None:
    rules = RuleSet.from_json({"base": "swiss", "deal_sequence": [5, 4, 3, 2]})
    dealt = deal_rounds(referee(rules), 5)
    assert [cards for cards, _ in dealt] == [5, 4, 3, 2, 5]


def test_s7_seed_000_alm_dog_deals_5_again_in_the_6th_round() -> None:
    """RULES.md section 7: ALM DOG (seed 000) deals 6, 5, 4, 3, 2, then 5, 4, 3, 2, 5, …:
    the first 6 is dealt once, the rest is the cycle (option deal_sequence)."""
    rules = RuleSet.from_json(
        {"base": "swiss", "deal_sequence": {"first": [6], "cycle": [5, 4, 3, 2]}}
    )
    assert rules.deal_sequence == ALM_DOG_DEALS
    dealt = deal_rounds(referee(rules), 11)
    assert all(counts == (cards,) * 4 for cards, counts in dealt)
    assert [cards for cards, _ in dealt] == [6, 5, 4, 3, 2, 5, 4, 3, 2, 5, 4]


def test_s7_deal_sequence_with_a_first_part_in_full_mode() -> None:
    game = Game(Setup.new(RuleSet(deal_sequence=DealSequence((3, 1), (2,))), seed=4))
    rng = random.Random(4)
    deals: list[Deal] = []
    while len(deals) < 4 and not game.over:
        event = play_step(game, rng, greed=0.5)
        if isinstance(event, Deal):
            assert event.hands is not None
            assert {len(hand) for hand in event.hands} == {event.cards}
            deals.append(event)
    assert [deal.cards for deal in deals] == [3, 1, 2, 2]


def test_s7_deal_rotates_dealer_and_starter() -> None:
    game = referee(dealer=2)
    seen = []
    for _ in range(5):
        deal = game.deal()
        seen.append((deal.round, deal.dealer, game.dealer, game.turn))
        game.exchange()
        fold_round(game)
    assert seen == [(1, 2, 2, 3), (2, 3, 3, 0), (3, 0, 0, 1), (4, 1, 1, 2), (5, 2, 2, 3)]


def test_s7_first_dealer_is_chosen_at_setup() -> None:
    for dealer in range(4):
        game = referee(dealer=dealer)
        game.deal()
        assert (game.dealer, game.turn, game.position.turn) == (dealer, (dealer + 1) % 4, game.turn)


def test_s7_first_dealer_must_be_a_player() -> None:
    with pytest.raises(ValueError, match="first_dealer 4"):
        referee(dealer=4)


def test_s7_deal_starts_with_the_player_after_the_dealer() -> None:
    top = cards("A K Q J 10 9 8 7")  # two cards each, one at a time, starter first
    game = Game(Setup.new(SWISS, first_dealer=1, seed=1, deck_top=top))
    game.deal()
    assert game.hands is not None
    assert [hand[:2] for hand in game.hands] == [
        tuple(cards("Q 8")),
        tuple(cards("J 7")),
        tuple(cards("A 10")),
        tuple(cards("K 9")),
    ]


def test_s7_partners_exchange_one_card_face_down() -> None:
    game = Game(Setup.new(SWISS, seed=11))
    game.deal()
    assert game.hands is not None
    hands = [list(hand) for hand in game.hands]
    given = [hand[0] for hand in hands]
    game.exchange(given)
    assert game.hands is not None
    for player in range(4):
        partner = (player + 2) % 4
        expected = [*hands[player][1:], given[partner]]
        assert Counter(game.hands[player]) == Counter(expected)
    assert game.phase is Phase.PLAY


def test_s7_exchange_comes_after_the_deal_and_before_the_first_card() -> None:
    game = referee()
    with pytest.raises(PhaseError, match="waits for the deal"):
        game.exchange()
    game.deal()
    with pytest.raises(PhaseError, match="waits for the exchange"):
        game.fold()
    with pytest.raises(PhaseError, match="waits for the exchange"):
        game.deal()
    game.exchange()
    assert game.phase is Phase.PLAY


# -- section 7: turns -------------------------------------------------------------------------


def test_s7_turn_plays_exactly_one_card_from_the_hand() -> None:
    game = dealt(team_start(), "A 2 2 2 2 2", "K 3 3 3 3 3", "Q 4 4 4 4 4", "J 5 5 5 5 5")
    ace = Card.ACE
    move = game.legal_moves(ace)[0]
    event = game.play(ace, move.result)
    assert event.notation == "A: red K→T0*"
    assert game.hands is not None and game.hands[0].count(ace) == 0
    assert game.counts == (5, 6, 6, 6)
    assert game.turn == 1 and game.position.turn == 1
    assert game.position.players[0].pegs == ("K", "K", "K", "T0*")


def test_s7_any_playable_card_may_be_chosen() -> None:
    start = position("K K K T5", "K K K K", "K K K K", "K K K K")
    for card in cards("2 3 Q"):
        game = dealt(start, "2 3 Q 9 9 9", NOTHING_PLAYABLE, NOTHING_PLAYABLE, NOTHING_PLAYABLE)
        game.play(card, game.legal_moves(card)[0].result)
        assert game.turn == 1


def test_s7_playable_card_must_be_executed_zugzwang() -> None:
    # Red's only peg must move 5 even though it runs past its home.
    start = position("H1 H2 H3 T62", "K K K K", "K K K K", "K K K K")
    game = dealt(start, "5 10 10 10 Q Q", *[NOTHING_PLAYABLE] * 3)
    with pytest.raises(FoldError, match="can play 5"):
        game.fold()
    game.play(Card.FIVE, position("H1 H2 H3 T3", "K K K K", "K K K K", "K K K K"))


def test_s7_fold_discards_whole_hand_and_sits_out() -> None:
    game = dealt(team_start(), NOTHING_PLAYABLE, "A 2 2 2 2 2", "A 3 3 3 3 3", "A 4 4 4 4 4")
    event = game.fold()
    assert event.cards is not None and Counter(event.cards) == Counter(cards(NOTHING_PLAYABLE))
    assert game.counts == (0, 6, 6, 6)
    assert game.folded == {0}
    assert game.deck is not None and Counter(game.deck.discards) == Counter(event.cards)
    turns = []
    for _ in range(3):
        game.play(Card.ACE, game.legal_moves(Card.ACE)[0].result)
        turns.append(game.turn)
    assert turns == [2, 3, 1]  # red is skipped
    with pytest.raises(TurnError, match="folded and sits out"):
        game.play(Card.TWO, game.position, player=0)


def test_s7_fold_must_discard_the_whole_hand() -> None:
    game = dealt(team_start(), NOTHING_PLAYABLE, *["A 2 3 4 5 6"] * 3)
    with pytest.raises(HandError, match="whole hand: 6 cards, not 2"):
        game.fold(cards("2 3"))


def test_s7_round_ends_when_every_hand_is_empty() -> None:
    game = referee()
    game.deal()
    game.exchange()
    game.fold()  # player 1
    game.fold()  # player 2
    game.fold()  # player 3
    assert game.phase is Phase.PLAY and game.turn == 0
    game.fold()
    assert game.counts == (0, 0, 0, 0)
    assert game.phase.value == "deal" and game.turn is None


def test_s7_player_left_alone_plays_on() -> None:
    game = dealt(team_start(), "A 2 2 2 2 2", NOTHING_PLAYABLE, NOTHING_PLAYABLE, NOTHING_PLAYABLE)
    game.play(Card.ACE, game.legal_moves(Card.ACE)[0].result)
    for _ in range(3):
        game.fold()
    assert game.turn == 0
    game.play(Card.TWO, game.legal_moves(Card.TWO)[0].result)
    assert game.turn == 0 and game.counts == (4, 0, 0, 0)


def test_s7_cards_are_never_drawn_in_team_game() -> None:
    game = dealt(team_start(), NOTHING_PLAYABLE, *["A 2 3 4 5 6"] * 3)
    before = game.state()
    with pytest.raises(FoldError, match="never drawn in a team game"):
        game.redraw(Card.TWO)
    assert game.state() == before


def test_s7_finished_player_keeps_cards_and_plays_partner_pegs() -> None:
    start = position("H0 H1 H2 H3", "K K K K", "K K K T40", "K K K K")
    game = dealt(start, "5 10 10 10 Q Q", *[NOTHING_PLAYABLE] * 3)
    assert game.counts[0] == 6
    event = game.play(Card.FIVE, position("H0 H1 H2 H3", "K K K K", "K K K T45", "K K K K"))
    assert event.notation == "5: green T40→T45"


def test_s7_team_wins_the_moment_all_its_pegs_are_home() -> None:
    start = position("H1 H2 H3 T62", "K K K K", "H0 H1 H2 H3", "K K K K")
    game = dealt(start, "3 9 9 9 9 9", *[NOTHING_PLAYABLE] * 3)
    game.play(Card.THREE, position("H0 H1 H2 H3", "K K K K", "H0 H1 H2 H3", "K K K K"))
    assert game.over and game.phase is Phase.OVER
    assert game.winners == (0, 2)
    assert game.turn is None
    assert game.counts == (5, 6, 6, 6)  # the remaining cards are not needed


def test_s7_finishing_card_must_be_executed_completely() -> None:
    # 3 would take red's last peg home; a 7 cannot stop there (4 points would lapse).
    start = position("H1 H2 H3 T62", "K K K K", "H0 H1 H2 H3", "K K K K")
    game = dealt(start, "7 9 9 9 9 9", *[NOTHING_PLAYABLE] * 3)
    done = position("H0 H1 H2 H3", "K K K K", "H0 H1 H2 H3", "K K K K")
    with pytest.raises(IllegalMoveError):
        game.play(Card.SEVEN, done)
    assert not game.over
    game.play(Card.SEVEN, position("H1 H2 H3 T5", "K K K K", "H0 H1 H2 H3", "K K K K"))
    assert not game.over


def test_s7_one_partner_home_is_not_a_win() -> None:
    start = position("H1 H2 H3 T62", "K K K K", "K K K K", "K K K K")
    game = dealt(start, "3 9 9 9 9 9", *[NOTHING_PLAYABLE] * 3)
    game.play(Card.THREE, position("H0 H1 H2 H3", "K K K K", "K K K K", "K K K K"))
    assert not game.over and game.turn == 1


def test_s7_six_players_play_in_three_teams() -> None:
    game = Game(Setup.new(SCHMIDT, 6, COLORS, seed=2))
    assert [game.receiver(i) for i in range(6)] == [3, 4, 5, 0, 1, 2]
    game.deal()
    assert game.counts == (6,) * 6


# -- section 8: 2, 3 and 5 players ------------------------------------------------------------


def individual_start(players: int = 3, pegs: str | None = None, turn: int = 0) -> Position:
    if pegs is None:
        board = 6 if players == 5 else 4
        return Position.initial(SCHMIDT, board, COLORS[:players], turn=turn)
    return position(*[pegs] * players, rules="schmidt", turn=turn)


def test_s8_five_pegs_one_on_start() -> None:
    for players, board in ((2, 4), (3, 4), (5, 6)):
        seats = [0, 2] if players == 2 else list(range(players))
        game = Game(Setup.new(SCHMIDT, board, COLORS[:players], seats, seed=1))
        for player in game.position.players:
            assert sorted(player.pegs) == ["K"] * 4 + [f"T{16 * player.seat}*"]
        assert not game.team_game


def test_s8_no_teams_exchange_passes_to_next_player() -> None:
    game = Game(Setup.new(SCHMIDT, 4, COLORS[:3], seed=4))
    assert [game.receiver(i) for i in range(3)] == [1, 2, 0]
    game.deal()
    assert game.hands is not None
    hands = [list(hand) for hand in game.hands]
    given = [hand[-1] for hand in hands]
    game.exchange(given)
    assert game.hands is not None
    for player in range(3):
        expected = [*hands[player][:-1], given[(player - 1) % 3]]
        assert Counter(game.hands[player]) == Counter(expected)


def test_s8_no_playable_card_discard_one_draw_one() -> None:
    start = individual_start(pegs="K K K K K")
    game = dealt(start, NOTHING_PLAYABLE, "A 2 2 2 2 2", "A 3 3 3 3 3")
    assert game.deck is not None
    next_card = game.deck.stack[0]
    event = game.redraw(Card.NINE)
    assert event.drawn == next_card
    assert game.counts == (6, 6, 6) and game.turn == 0 and game.redrawn
    assert game.hands is not None and next_card in game.hands[0]


def test_s8_still_unable_discards_one_more_and_turn_passes() -> None:
    game = _with_next_card(individual_start(pegs="K K K K K"), Card.TEN)
    game.redraw(Card.NINE)
    with pytest.raises(FoldError, match="already drawn"):
        game.redraw(Card.TEN)
    event = game.fold(cards("10"))
    assert event.cards == (Card.TEN,)
    assert game.counts == (5, 6, 6) and game.turn == 1 and not game.redrawn
    assert game.folded == frozenset()  # no sitting out: player 0 plays again this round


def test_s8_after_redraw_a_playable_card_must_be_played() -> None:
    start = individual_start(pegs="K K K K K")
    game = _with_next_card(start, Card.ACE)
    game.redraw(Card.NINE)
    with pytest.raises(FoldError, match="can play A"):
        game.fold(cards("A"))
    game.play(Card.ACE, game.legal_moves(Card.ACE)[0].result)
    assert game.turn == 1 and game.counts == (5, 6, 6)


def test_s8_fold_needs_a_redraw_first() -> None:
    game = _with_next_card(individual_start(pegs="K K K K K"), Card.TEN)
    with pytest.raises(FoldError, match="first discard one card and draw one"):
        game.fold(cards("9"))


def test_s8_redraw_refused_with_a_playable_card() -> None:
    game = dealt(individual_start(), NOTHING_PLAYABLE, *[NOTHING_PLAYABLE] * 2)
    with pytest.raises(FoldError, match="can play"):
        game.redraw(Card.TWO)


def _with_next_card(start: Position, card: Card) -> Game:
    """3 players, all hands unplayable for player 0; ``card`` is the next card of the stack."""
    probe = dealt(start, NOTHING_PLAYABLE, "A 2 2 2 2 2", "A 3 3 3 3 3")
    assert probe.deck is not None
    top = (*probe.setup.deck_top, card)
    game = Game(Setup(start, probe.setup.first_dealer, probe.setup.seed, top))
    game.deal()
    exchange = probe.events[1]
    assert isinstance(exchange, Exchange) and exchange.given is not None
    game.exchange(exchange.given)
    assert game.deck is not None and game.deck.stack[0] is card
    return game


def test_s8_first_player_with_four_pegs_home_wins() -> None:
    start = position("K H1 H2 H3 T62", "K K K K K", "K K K K K", rules="schmidt")
    game = dealt(start, "3 9 9 9 9 9", *[NOTHING_PLAYABLE] * 2)
    game.play(Card.THREE, position("K H0 H1 H2 H3", "K K K K K", "K K K K K", rules="schmidt"))
    assert game.over and game.winners == (0,)


def test_s8_seats_nobody_plays_stay_empty() -> None:
    game = Game(Setup.new(SCHMIDT, 4, COLORS[:2], [0, 2], seed=3))
    assert [player.seat for player in game.position.players] == [0, 2]
    assert game.receiver(0) == 1 and game.receiver(1) == 0
    game.deal()
    assert game.counts == (6, 6)


def test_s8_individual_play_needs_schmidt_rules() -> None:
    with pytest.raises(ValueError, match="team_game"):
        Setup.new(SWISS, 4, COLORS[:3])


# -- fold claims ------------------------------------------------------------------------------


def test_fold_check_shows_a_playable_card_and_its_move() -> None:
    check = fold_check(team_start(), cards("2 3 A"))
    assert not check.justified and check.playable is Card.ACE
    assert check.move is not None and check.move.notation == "A: red K→T0*"


def test_fold_check_justified_without_playable_card() -> None:
    check = fold_check(team_start(), cards(NOTHING_PLAYABLE))
    assert check.justified and check.playable is None and check.move is None


def test_fold_check_jack_without_effect_is_playable() -> None:
    check = fold_check(team_start(), cards("J 2"))
    assert not check.justified and check.playable is Card.JACK


# -- event errors: a clear GameError, and nothing changes --------------------------------------


def test_out_of_turn_play_is_refused() -> None:
    game = dealt(team_start(), *["A 2 3 4 5 6"] * 4)
    result = legal_moves(team_start().with_turn(1), Card.ACE)[0].result
    before = game.state()
    with pytest.raises(
        TurnError, match=r"player 1 \(yellow\) cannot play A: it is player 0's turn"
    ):
        game.play(Card.ACE, result, player=1)
    assert game.state() == before


def test_card_not_in_hand_is_refused() -> None:
    game = dealt(team_start(), *["A 2 3 4 5 6"] * 4)
    before = game.state()
    with pytest.raises(HandError, match="player 0 does not hold K"):
        game.play(Card.KING, game.legal_moves(Card.KING)[0].result)
    assert game.state() == before


def test_illegal_move_is_refused_and_names_the_card() -> None:
    game = dealt(team_start(), *["A 2 3 4 5 6"] * 4)
    before = game.state()
    wrong = position("K K K T5", "K K K K", "K K K K", "K K K K")
    with pytest.raises(IllegalMoveError, match=r"player 0 \(red\) cannot play A") as error:
        game.play(Card.ACE, wrong)
    assert [near.move.notation for near in error.value.verdict.nearest] == ["A: red K→T0*"]
    assert game.state() == before


def test_unplayable_card_is_refused() -> None:
    game = dealt(team_start(), *["A 2 3 4 5 6"] * 4)
    with pytest.raises(IllegalMoveError) as error:
        game.play(Card.TWO, game.position)
    assert not error.value.verdict.playable


def test_events_after_the_game_ended_are_refused() -> None:
    start = position("H1 H2 H3 T62", "K K K K", "H0 H1 H2 H3", "K K K K")
    game = dealt(start, "3 9 9 9 9 9", *[NOTHING_PLAYABLE] * 3)
    game.play(Card.THREE, position("H0 H1 H2 H3", "K K K K", "H0 H1 H2 H3", "K K K K"))
    before = game.state()
    with pytest.raises(GameOverError, match=r"game is over \(won by players \(0, 2\)\)"):
        game.play(Card.NINE, game.position, player=1)
    with pytest.raises(GameOverError):
        game.deal()
    with pytest.raises(GameOverError):
        game.fold(player=1)
    assert game.state() == before


def test_unknown_player_is_refused() -> None:
    for game in (referee(), Game(Setup.new(SWISS, seed=1))):
        game.deal()
        assert game.hands is None or len(game.hands) == 4
        game.exchange(None if game.hands is None else [hand[0] for hand in game.hands])
        for event in (game.fold, game.redraw):
            with pytest.raises(TurnError, match="no player 7"):
                event(player=7)


def test_position_of_another_game_is_refused() -> None:
    game = dealt(team_start(), *["A 2 3 4 5 6"] * 4)
    schmidt = Position.initial(SCHMIDT, 4, COLORS[:4])
    with pytest.raises(GameError, match=r"not of this game: after\.rules"):
        game.play(Card.ACE, legal_moves(schmidt, Card.ACE)[0].result)


def test_wrong_exchange_is_refused() -> None:
    game = Game(Setup.new(SWISS, seed=8))
    game.deal()
    assert game.hands is not None
    before = game.state()
    missing = next(card for card in Card if card not in game.hands[0])
    with pytest.raises(HandError, match=f"player 0 does not hold {missing}"):
        game.exchange([missing, *(hand[0] for hand in game.hands[1:])])
    with pytest.raises(HandError, match="each of the 4 players"):
        game.exchange([game.hands[0][0]])
    assert game.state() == before


def test_deal_out_of_sequence_is_refused() -> None:
    game = referee()
    with pytest.raises(PhaseError, match="round 1 is due: player 0 deals 6 cards"):
        game.apply(Deal(round=2, dealer=1, cards=5))
    assert game.round == 0


def test_deck_top_needs_a_seed() -> None:
    with pytest.raises(ValueError, match="deck_top needs a seed"):
        Game(Setup(team_start(), 0, None, (Card.ACE,)))


def test_deck_top_cannot_hold_more_than_the_deck() -> None:
    with pytest.raises(ValueError, match="too few of JOKER"):
        Game(Setup(team_start(), 0, 1, (Card.JOKER,) * 7))


# -- referee mode: hands are secret ------------------------------------------------------------


def test_referee_mode_counts_cards_without_knowing_them() -> None:
    game = referee(dealer=3)
    assert not game.hands_known and game.hands is None and game.deck is None
    game.deal()
    game.exchange()
    result = legal_moves(game.position, Card.ACE)[0].result
    event = game.play(Card.ACE, result)
    assert event.notation == "A: red K→T0*"
    assert game.counts == (5, 6, 6, 6) and game.turn == 1


def test_referee_mode_checks_the_observed_position() -> None:
    game = referee(dealer=3)
    game.deal()
    game.exchange()
    before = game.state()
    with pytest.raises(IllegalMoveError):
        game.play(Card.TWO, position("K K K T2", "K K K K", "K K K K", "K K K K"))
    assert game.state() == before


def test_referee_mode_checks_a_revealed_fold() -> None:
    game = referee(dealer=3)
    game.deal()
    game.exchange()
    with pytest.raises(FoldError, match="can play A"):
        game.fold(cards("A 2 3 4 5 6"))
    game.fold(cards(NOTHING_PLAYABLE))
    assert game.folded == {0} and game.turn == 1


def test_referee_mode_refuses_named_cards_where_it_cannot_know_them() -> None:
    game = referee()
    with pytest.raises(HandError, match="referee game"):
        game.apply(Deal(1, 0, 6, hands=(tuple(cards("A A A A A A")),) * 4))
    game.deal()
    with pytest.raises(HandError, match="referee game"):
        game.apply(Exchange(tuple(cards("A A A A"))))


def test_referee_mode_player_out_of_cards_is_skipped() -> None:
    game = referee(rules=RuleSet.from_json({"base": "swiss", "deal_sequence": [2]}), dealer=3)
    game.deal()
    game.exchange()
    for _ in range(4):
        game.play(Card.ACE, legal_moves(game.position, Card.ACE)[0].result)
    game.fold()  # referee mode: the claim is taken as made
    with pytest.raises(TurnError, match="folded and sits out"):
        game.fold(player=0)
    for _ in range(3):
        game.play(Card.TWO, legal_moves(game.position, Card.TWO)[0].result)
    assert game.phase is Phase.DEAL and game.counts == (0, 0, 0, 0)
