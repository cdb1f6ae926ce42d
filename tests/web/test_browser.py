"""The referee page in a real browser: board drawn, live updates, language switch."""

from __future__ import annotations

import pytest

from companion.table import Table
from companion.web import create_app
from hw import load_profile
from tests.browser import chromium_page, live_server

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("board", "holes", "marbles"), [("brandi-4", 96, 16),
                                                         ("brandi-6", 144, 24)])
def test_board_is_drawn_and_follows_the_table_live(board: str, holes: int,
                                                   marbles: int) -> None:
    table = Table(load_profile(board), simulated=True,
                  hardware={"camera": "sim", "leds": "sim", "model": "test"})
    with live_server(create_app(table)) as url, chromium_page() as page:
        page.goto(url + "/")
        page.wait_for_function(f"document.querySelectorAll('[data-hole]').length === {holes}")
        page.wait_for_function(
            f"document.querySelectorAll('.hole.marble').length === {marbles}")
        assert page.locator("#marble-count").inner_text() == str(marbles)
        page.wait_for_function("document.getElementById('connection').textContent !== ''")

        table.update_holes({"K0.0": None, "T0": "red"})
        page.wait_for_function(
            "document.querySelector('[data-hole=\"T0\"]').dataset.color === 'red'")
        assert page.locator('[data-hole="K0.0"]').get_attribute("data-color") == ""

        table.mirror_leds([(0, 255, 0)] + [(0, 0, 0)] * (table.profile.led_count - 1))
        page.wait_for_function(
            "document.querySelector('[data-led=\"T0\"]').classList.contains('lit')")
        assert page.locator(".led.lit").count() == 1


def test_language_switch() -> None:
    table = Table(load_profile("brandi-4"), simulated=True,
                  hardware={"camera": "sim", "leds": "sim", "model": "test"})
    with live_server(create_app(table)) as url, chromium_page() as page:
        page.goto(url + "/")
        assert "Simulierter Tisch" in page.locator("#mode").inner_text()
        page.click("a.language")
        page.wait_for_url("**/?lang=en")
        assert "Simulated table" in page.locator("#mode").inner_text()
        assert page.locator("html").get_attribute("lang") == "en"
