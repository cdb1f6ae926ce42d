"""The referee page served by the Flask app factory (test client, no browser)."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from companion.table import Table
from companion.web import create_app
from hw import load_profile


@pytest.fixture
def table() -> Table:
    return Table(load_profile("brandi-4"), simulated=True,
                 hardware={"camera": "sim", "leds": "sim", "model": "test"})


@pytest.fixture
def client(table: Table) -> FlaskClient:
    return create_app(table, {"TESTING": True, "SSE_HEARTBEAT_S": 0.05}).test_client()


def test_page_is_german_by_default(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert '<html lang="de">' in page
    assert "Simulierter Tisch" in page


def test_page_in_english_on_request(client: FlaskClient) -> None:
    page = client.get("/?lang=en").get_data(as_text=True)
    assert '<html lang="en">' in page
    assert "Simulated table" in page


def test_page_follows_the_browser_language(client: FlaskClient) -> None:
    page = client.get("/", headers={"Accept-Language": "en-GB,en;q=0.9"}).get_data(as_text=True)
    assert '<html lang="en">' in page


def test_board_profile_api(client: FlaskClient) -> None:
    board = client.get("/api/board").get_json()
    assert board["name"] == "brandi-4"
    assert len(board["holes"]) == 96
    assert {"id", "kind", "x", "y", "seat", "led"} <= set(board["holes"][0])


def test_state_starts_with_every_marble_in_its_kennel(client: FlaskClient) -> None:
    state = client.get("/api/state").get_json()
    marbles = {hole: color for hole, color in state["holes"].items() if color}
    assert len(marbles) == 16
    assert all(hole.startswith("K") for hole in marbles)
    assert marbles["K2.3"] == "green"


def test_unknown_hole_changes_nothing(table: Table) -> None:
    with pytest.raises(ValueError, match="T99"):
        table.update_holes({"T1": "red", "T99": "red"})
    assert table.snapshot()["holes"]["T1"] is None


def test_the_page_mirrors_the_led_strip(table: Table) -> None:
    from firmware_bridge import effects
    from firmware_bridge.backends.sim import SimStrip
    from firmware_bridge.config import LedConfig

    strip = SimStrip(LedConfig(backend="sim", count=table.profile.led_count, gamma=1.0))
    strip.add_listener(lambda shown: table.mirror_leds(shown.colors))
    scene = effects.targets(table.profile, {"T5": "#00ff00", "H0.2": "#ff0000"})
    strip.set_frame(scene.frame_at(0.0))
    strip.show()
    assert table.snapshot()["leds"] == {"T5": "#00ff00", "H0.2": "#ff0000"}
    strip.off()
    assert table.snapshot()["leds"] == {}
    strip.close()
