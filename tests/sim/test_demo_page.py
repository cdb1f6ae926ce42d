"""The demo's seat hand-over on the page, in Debian's Chromium.

Bots play at the live simulated table (the table's own camera loop reads the virtual board);
a person joins a seat by its link, takes it from the bot on the page, sees its hand, announces
a card on the card pad, plays one of its legal moves from the list, and gives the seat back.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.commands.demo import add_demo
from companion.sim.live import DemoOptions, LiveTable
from companion.table import RefereePin, Table
from companion.web import create_app
from hw import load_profile
from tests.browser import chromium, live_server
from vision.render import RenderConditions

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PIN = "1357"
FRAMES = RenderConditions(width=640, height=480, noise_sigma=1.5, jpeg_quality=90)
WAIT_S = 90.0  # the bots and the camera loop share two cores with the other tests
PAGE_WAIT_MS = WAIT_S * 1000


def wait_for(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.1)


@pytest.fixture
def browser() -> Iterator[Any]:
    with chromium() as launched:
        yield launched


def test_a_person_takes_a_seat_plays_a_card_and_gives_it_back(tmp_path: Path,
                                                               browser: Any) -> None:
    from playwright.sync_api import expect

    table = Table(load_profile("brandi-4"), state_dir=tmp_path)
    app = create_app(table, {"SSE_HEARTBEAT_S": 1.0}, pin=RefereePin.from_pin(PIN))
    with LiveTable(table, conditions=FRAMES, fps=8) as live, live_server(app) as url:
        add_demo(app, live)
        live.start_game(DemoOptions(seed=3, cheat=0.0, speed=8))
        wait_for(lambda: table.state()["moves"] >= 1, "the bots' first move")
        conductor = live.conductor
        assert conductor is not None
        person = (table.state()["position"]["turn"] + 2) % 4
        referee = app.test_client()
        referee.get("/api/session")
        referee.post("/api/login", json={"pin": PIN})
        token = referee.get("/api/seats").get_json()["seats"][person]["token"]

        page = browser.new_context(locale="en-GB").new_page()
        problems: list[str] = []
        page.on("pageerror", lambda error: problems.append(str(error)))
        page.goto(f"{url}/join/{token}")
        expect(page.locator("#connection")).to_have_text("live", timeout=PAGE_WAIT_MS)
        expect(page.locator("#demo-status")).to_have_text("A bot plays your seat.",
                                                          timeout=PAGE_WAIT_MS)
        page.click("#demo-take")
        expect(page.locator("#demo-release")).to_be_visible(timeout=PAGE_WAIT_MS)
        assert live.status()["people"] == [person]

        # The seat's hand is shown to it; once it is to move, a card from the card pad.
        wait_for(lambda: conductor.game.turn == person
                 and table.state()["position"]["turn"] == person, "the person's turn")
        hand = conductor.hand(person)
        expect(page.locator("#demo-hand .card")).to_have_count(len(hand), timeout=PAGE_WAIT_MS)
        view = live.seat(person)
        playable = [card for card, moves in view["moves"].items() if moves]
        moves_before = table.state()["moves"]
        if playable:
            card = playable[0]
            page.click(f'#cardpad button[data-card="{card}"]')
            first = page.locator("#demo-moves button").first
            expect(first).to_have_text(view["moves"][card][0], timeout=PAGE_WAIT_MS)
            first.click()
            wait_for(lambda: table.state()["moves"] > moves_before, "the move accepted")
            assert table.state()["verdict"]["card"] == card
        else:
            page.once("dialog", lambda dialog: dialog.accept())
            page.click("#fold")
            wait_for(lambda: person in table.state()["folded"], "the fold")
        wait_for(lambda: conductor.game.turn != person, "the next turn")

        page.click("#demo-release")
        expect(page.locator("#demo-take")).to_be_visible(timeout=PAGE_WAIT_MS)
        assert live.status()["people"] == []
        wait_for(lambda: table.state()["moves"] > moves_before + 2, "the bot playing again")
        assert live.status()["error"] is None
        assert not problems
