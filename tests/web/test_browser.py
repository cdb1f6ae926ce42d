"""The referee page in Debian's Chromium: a whole game's first move, from setup to undo.

The referee's screen and a player's phone are two browser contexts (two sets of cookies); the
player joins by the link of their seat's QR code. The table has the simulated camera (the
table's own board rendered as frames), so the reference frame is taken for real. When the
server stops, both pages show that they lost the connection.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.table import RefereePin, Table
from companion.table.camera import CameraLoop, rendered_source
from companion.web import create_app
from hw import load_profile
from tests.browser import chromium, live_server

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PIN = "2468"
PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 740}, "has_touch": True,
                         "device_scale_factor": 2}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
NAMES = ("Anna", "Ben", "Cleo", "Dario")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    table = Table(load_profile("brandi-4"), simulated=True,
                  hardware={"camera": "sim", "leds": "sim"}, state_dir=tmp_path)
    with CameraLoop(table, rendered_source(table), simulated=True):
        yield table


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium for the module; each test opens its own contexts (cookies, storage)."""
    with chromium() as launched:
        yield launched


@pytest.fixture
def open_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """`open_page(locale=..., viewport=...)`: a page in a new browser context (its own
    cookies); every context closes when the test ends."""
    contexts: list[Any] = []

    def open_one(**options: Any) -> Any:
        contexts.append(browser.new_context(**options))
        return contexts[-1].new_page()

    yield open_one
    for context in contexts:
        context.close()


def hole(page: Any, hole_id: str) -> Any:
    """The hole of the live board (the small boards have the same ids)."""
    return page.locator(f'#board [data-hole="{hole_id}"]')


def marked(name: str) -> re.Pattern[str]:
    """A class list that holds `name`."""
    return re.compile(rf"\b{name}\b")


@pytest.mark.parametrize(("screen", "phone"), [(DESKTOP, PHONE), (PHONE, DESKTOP)],
                         ids=["referee-desktop", "referee-phone"])
def test_a_first_move_from_setup_to_undo(table: Table, open_page: Callable[..., Any],
                                         screen: dict[str, Any], phone: dict[str, Any]) -> None:
    from playwright.sync_api import expect

    app = create_app(table, {"SSE_HEARTBEAT_S": 1.0}, pin=RefereePin.from_pin(PIN))
    with live_server(app) as url:
        referee = open_page(locale="de-CH", **screen)
        problems: list[str] = []
        referee.on("console", lambda message: problems.append(message.text)
                   if message.type == "error" else None)
        referee.on("pageerror", lambda error: problems.append(str(error)))
        referee.goto(url + "/setup")
        expect(referee.locator("#connection")).to_have_text("live")

        # Setup: names, the reference frame (asks for the PIN first), start.
        for row, name in enumerate(NAMES):
            referee.locator("#setup-form input[name=name]").nth(row).fill(name)
        referee.click("#take-reference")
        referee.fill("#pin", PIN)
        referee.click("#login-submit")
        expect(referee.locator("#reference-state")).to_have_text("Referenz aufgenommen.")
        assert table.state()["camera"]["reference"]
        # Schmidt's rules with one option changed: sent as the preset and that option.
        referee.check('#setup-form input[value="schmidt"]')
        referee.click("#setup-form summary")
        expect(referee.locator("#setup-form [name=start_protection]")).to_have_value("always")
        referee.fill("#setup-form [name=deal_sequence]", "5, 4, 3")
        with referee.expect_request("**/api/setup") as setup:
            referee.click("#start-game")
        assert setup.value.post_data_json["rules"] == {"base": "schmidt",
                                                       "deal_sequence": [5, 4, 3]}
        assert [p["name"] for p in setup.value.post_data_json["players"]] == list(NAMES)
        expect(referee.locator("body")).to_have_attribute("data-phase", "play")
        expect(referee.locator("#status")).to_contain_text("Runde 1, 5 Karten, Geber Anna")
        expect(referee.locator("#turn")).to_contain_text("Ben ist am Zug")
        expect(referee.locator("#view-board")).to_be_visible()

        # Ben joins his seat by its QR code's link on his phone.
        referee.click("#seats-box summary")
        expect(referee.locator("#seats img.qr")).to_have_count(4)
        link = referee.locator('#seats li[data-seat="1"] a.seat-link').get_attribute("href")
        assert link and "/join/" in link
        ben = open_page(locale="de-CH", **phone)
        ben.on("console", lambda message: problems.append(message.text)
               if message.type == "error" else None)
        ben.on("pageerror", lambda error: problems.append(str(error)))
        ben.goto(link)
        expect(ben.locator("body")).to_have_attribute("data-role", "seat")
        expect(ben.locator("#turn")).to_contain_text("Du bist dran")
        for page in (ben, referee):     # nothing wider than a 360 px phone
            assert page.evaluate("document.documentElement.scrollWidth") <= \
                page.viewport_size["width"]

        # He announces an Ace: its target lights up on both screens.
        ben.click('#cardpad .card[data-card="A"]')
        for page in (ben, referee):
            expect(hole(page, "T16")).to_have_class(marked("targets"))
            expect(page.locator("#announced .big-card")).to_have_text("A")

        # He enters a wrong move by hand: out of the kennel onto T20.
        ben.click("#manual-open")
        hole(ben, "K1.0").click()
        hole(ben, "T20").click()
        expect(ben.locator("#manual-parts")).to_contain_text("K1.0→T20")
        ben.click("#manual-submit")
        for page in (ben, referee):
            expect(page.locator("#verdict")).to_have_class(marked("illegal"))
            expect(page.locator("#verdict-reason")).to_contain_text("Zwinger")
        expect(hole(referee, "T20")).to_have_class(marked("wrong"))
        expect(hole(referee, "T20")).to_have_attribute("data-color", "yellow")
        expect(hole(referee, "T16")).to_have_class(marked("expected"))
        expect(referee.locator("#verdict-snapshots")).to_be_visible()     # the camera's
        for image in ("#snapshot-before", "#snapshot-after"):
            expect(referee.locator(image)).to_have_attribute("src", re.compile("/api/snapshots/"))
            assert referee.locator(image).evaluate("image => image.decode().then(() => "
                                                   "image.naturalWidth)") > 0
        expect(referee.locator("#nearest li")).to_have_count(1)
        expect(referee.locator("#nearest .difference")).to_have_text(
            ["Gelb: gesehen auf T20, erwartet auf T16*"])

        # He puts it right by picking the legal result.
        ben.click("#manual-open")
        ben.click("#results .result")
        ben.click("#manual-submit")
        for page in (ben, referee):
            expect(page.locator("#verdict")).to_have_class(marked("legal"))
            expect(page.locator("#turn")).to_contain_text("Cleo ist am Zug")
        expect(ben.locator("#cardpad-title")).to_have_text("Warte, bis du dran bist.")
        expect(hole(referee, "T16")).to_have_attribute("data-color", "yellow")

        # The referee's screen logs out; taking the move back asks for the PIN again.
        referee.click("#login-open")
        expect(referee.locator("body")).to_have_attribute("data-role", "watcher")
        referee.click("#undo")
        referee.fill("#pin", PIN)
        referee.click("#login-submit")
        expect(referee.locator("#turn")).to_contain_text("Ben ist am Zug")
        expect(ben.locator("#turn")).to_contain_text("Du bist dran")
        assert table.state()["moves"] == 0

        # The referee revokes Ben's seat: his next tap is refused and his phone only watches.
        referee.locator('#seats li[data-seat="1"] button').click()
        ben.click('#cardpad .card[data-card="K"]')
        expect(ben.locator("#toast")).to_contain_text("Abgelehnt")
        expect(ben.locator("body")).to_have_attribute("data-role", "watcher")
        expect(ben.locator("#cardpad")).to_be_hidden()
        problems[:] = [text for text in problems if "status of 403" not in text]   # that refusal

        # The history view and the language switch.
        referee.click('nav a[data-view="history"]')
        expect(referee.locator("#moves li")).to_have_text(["Noch keine Züge."])
        referee.click("#language")
        expect(referee.locator("html")).to_have_attribute("lang", "en")
        expect(referee.locator("#view-history h1")).to_have_text("History")
        expect(referee.locator("#turn")).to_contain_text("Ben to move")
        assert problems == []       # no script error, nothing the CSP blocked, no missing file

    # The server is gone: both pages say so.
    for page in (ben, referee):
        expect(page.locator("#offline")).to_be_visible()
        expect(page.locator("#connection")).to_have_class(marked("lost"))


def test_a_seven_entered_part_by_part(table: Table, open_page: Callable[..., Any]) -> None:
    """The referee enters a 7 split over two marbles, the first knocking out a red one."""
    from playwright.sync_api import expect

    players = [{"name": name, "color": color, "at": seat} for seat, (name, color)
               in enumerate(zip(NAMES, ("red", "yellow", "green", "blue"), strict=True))]
    position = table.setup({"rules": "swiss", "board": 4, "players": players,
                            "first_dealer": 0})["position"]
    position["players"][0]["pegs"] = ["T36", "K", "K", "K"]
    position["players"][2]["pegs"] = ["T33", "T40", "K", "K"]
    table.override(position)                    # the turn passes to Cleo (green)
    app = create_app(table, {"SSE_HEARTBEAT_S": 1.0}, pin=RefereePin.from_pin(PIN))
    with live_server(app) as url:
        referee = open_page(locale="en-GB", **DESKTOP)
        referee.goto(url + "/")
        referee.click("#login-open")
        referee.fill("#pin", PIN)
        referee.click("#login-submit")
        referee.click('#cardpad .card[data-card="7"]')
        expect(hole(referee, "T43")).to_have_class(marked("targets"))
        referee.click("#manual-open")
        for start, end in (("T33", "T36"), ("T40", "T44")):
            hole(referee, start).click()
            expect(hole(referee, start)).to_have_class(marked("selected"))
            hole(referee, end).click()
        expect(referee.locator("#manual-parts")).to_have_text(
            "Moved so far: G T33→T36 ×R, G T40→T44")
        expect(hole(referee, "K0.3")).to_have_attribute("data-color", "red")
        referee.click("#manual-submit")
        expect(referee.locator("#verdict")).to_have_class(marked("legal"))
        expect(referee.locator("#verdict-move")).to_contain_text("7: green T33→T36 ×red@T36")
        expect(referee.locator("#turn")).to_contain_text("Dario to move")
        assert table.state()["moves"] == 2

        # History: the replay slider draws the board after move 1; take back to there.
        referee.click('nav a[data-view="history"]')
        expect(referee.locator("#moves li[data-n]")).to_have_count(2)
        expect(referee.locator("#moves li.current")).to_have_attribute("data-n", "2")
        referee.locator("#replay").fill("1")
        expect(referee.locator("#replay-at")).to_have_text("After move 1 of 2")
        replay = referee.locator('#replay-board [data-hole="T36"]')
        expect(replay).to_have_attribute("data-color", "red")
        referee.once("dialog", lambda dialog: dialog.accept())
        referee.click("#take-back")
        expect(referee.locator("#moves li[data-n]")).to_have_count(1)
        expect(referee.locator("#turn")).to_contain_text("Cleo to move")
    assert table.state()["moves"] == 1


def overexposed_reader(reference: Any) -> Any:
    """The real reader of the rendered board, reporting an overexposed white kennel as
    `reference_warnings` does."""
    from vision.reader import BoardReader
    from vision.reader.warning import kennel_overexposed

    reader = BoardReader(load_profile("brandi-4"), reference=reference)
    reader.warnings = (kennel_overexposed("white"),)
    return reader


def test_camera_image_settings_and_the_exchange(tmp_path: Path,
                                                open_page: Callable[..., Any]) -> None:
    """The camera view shows the live image and fetches it again; a reader's warning reads in
    German; the referee changes the settings and has the camera learn the light anew; the seat
    to move ends the partner exchange."""
    from playwright.sync_api import expect

    table = Table(load_profile("brandi-4"), simulated=True,
                  hardware={"camera": "sim", "leds": "sim"}, state_dir=tmp_path)
    players = [{"name": name, "color": color, "at": seat} for seat, (name, color)
               in enumerate(zip(NAMES, ("red", "yellow", "green", "blue"), strict=True))]
    table.setup({"rules": "swiss", "board": 4, "players": players, "first_dealer": 0})
    app = create_app(table, {"SSE_HEARTBEAT_S": 1.0}, pin=RefereePin.from_pin(PIN))
    with CameraLoop(table, rendered_source(table), simulated=True,
                    reader_factory=overexposed_reader), live_server(app) as url:
        referee = open_page(locale="de-DE", **PHONE)
        referee.goto(url + "/calibration")
        image = referee.locator("#camera-image")
        expect(image).to_be_visible()                   # shown once an image has loaded
        assert image.evaluate("img => img.naturalWidth") > 0
        first = image.get_attribute("src")
        assert first is not None and "overlay=1" in first
        expect(image).not_to_have_attribute("src", first)        # fetched again
        expect(referee.locator("#camera-warnings")).to_contain_text(
            "Der Zwinger (weiß) ist überbelichtet")
        expect(referee.locator("#camera-hint")).to_contain_text("Belichtung der Kamera")

        referee.click('nav a[data-view="settings"]')
        expect(referee.locator("#setting-night")).not_to_be_checked()
        referee.check("#setting-night")
        referee.fill("#setting-settle", "2.5")
        referee.click("#settings-save")
        referee.fill("#pin", PIN)
        referee.click("#login-submit")
        expect(referee.locator("#settle-time")).to_have_text("2.5 s")
        assert table.state()["settings"] == {"brightness": 1.0, "night": True, "settle_s": 2.5}

        table.take_reference()                          # a lamp switched: the light learnt anew
        referee.click('nav a[data-view="calibration"]')
        referee.once("dialog", lambda dialog: dialog.accept())
        referee.click("#relearn-light")
        expect(referee.locator("#toast")).to_have_text("Die Kamera hat das neue Licht gelernt.")

        referee.click('nav a[data-view="board"]')
        expect(referee.locator("#exchange")).to_be_visible()
        referee.click("#exchange-done")
        expect(referee.locator("#exchange")).to_be_hidden()
        assert table.state()["exchange"] is False


def test_a_board_unsettled_for_long_asks_whether_the_light_changed(
        tmp_path: Path, open_page: Callable[..., Any]) -> None:
    """No stable reading for `LONG_UNSETTLED_S` (a lamp switched on mid-game): the board view
    says what to do, in German, until the board settles again."""
    from playwright.sync_api import expect

    from companion.table.session import LONG_UNSETTLED_S

    now = [1000.0]
    table = Table(load_profile("brandi-4"), state_dir=tmp_path, clock=lambda: now[0])
    table.attach_camera("reading", None)
    players = [{"name": name, "color": color, "at": seat} for seat, (name, color)
               in enumerate(zip(NAMES, ("red", "yellow", "green", "blue"), strict=True))]
    table.setup({"rules": "swiss", "board": 4, "players": players, "first_dealer": 0})
    app = create_app(table, {"SSE_HEARTBEAT_S": 1.0}, pin=RefereePin.from_pin(PIN))
    with live_server(app) as url:
        page = open_page(locale="de-DE", **PHONE)
        page.goto(url + "/")
        banner = page.locator("#unsettled-long")
        expect(page.locator("#status")).to_contain_text("Runde 1")
        expect(banner).to_be_hidden()
        table.unsettled()
        now[0] += LONG_UNSETTLED_S
        table.tick()
        expect(banner).to_be_visible()
        expect(banner).to_contain_text("hat sich vielleicht das Licht geändert")
        table.feed(table.believed_holes())
        expect(banner).to_be_hidden()
