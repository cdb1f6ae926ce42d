"""The referee page in Debian's Chromium: latency from a table event to the DOM, page weight,
and the screenshots of docs/page.md.

    nice -n 19 .venv/bin/python bench/page.py                    # latency (1 and 40 pages), weight
    nice -n 19 .venv/bin/python bench/page.py --pages 1 --samples 20
    nice -n 19 .venv/bin/python bench/page.py --pages 1 --watchers 39     # 40 open, 1 in Chromium
    nice -n 19 .venv/bin/python bench/page.py --screenshots docs/img

Latency: a game is set up, N pages are open on the board view, and the player to move
announces cards one after another (a fixed seed chooses the card and the pause between two).
Each page records when its DOM first shows the new card (a MutationObserver on the announced
card; the clock is the machine's wall clock in both Python and Chromium). One sample is one
page showing one event; the figures are the p50 and p95 over all samples, also split into the
way to the page (the event to the stream's message arriving in the page's script) and the
page's own share (that message to the DOM showing the card). The server is the
one `dog-companion run` uses (`companion.web.server`).

`--watchers W` keeps W more event streams open with plain HTTP clients that read every message,
as the phones and screens at a table do on their own processors: 40 pages open while only the
measured ones render on this machine's two cores.
"""

from __future__ import annotations

import argparse
import gzip
import random
import re
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

# The checkout first: bench/vision.py must not hide the vision package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.table import RefereePin, Table, TableError
from companion.web import create_app
from companion.web.server import create_server
from hw import load_profile
from tests.browser import chromium

# Pages in the background still get every event at once.
UNTHROTTLED = ["--disable-background-timer-throttling", "--disable-renderer-backgrounding",
               "--disable-backgrounding-occluded-windows"]
PIN = "2468"
PLAYERS = [{"name": "Anna", "color": "red", "at": 0}, {"name": "Ben", "color": "yellow", "at": 1},
           {"name": "Cleo", "color": "green", "at": 2}, {"name": "Dario", "color": "blue", "at": 3}]
SETUP = {"rules": "swiss", "board": 4, "players": PLAYERS, "first_dealer": 0}
START_CARDS = ("A", "K", "JOKER")   # playable while every marble is in its kennel
RECORDER = """
window.__seen = [];
window.__arrived = [];
const PageEventSource = window.EventSource;
window.EventSource = function (url) {
  const source = new PageEventSource(url);
  source.addEventListener("message", (event) => {
    const announced = JSON.parse(event.data).announced;
    const card = announced ? (announced.card === "JOKER" ? "Joker" : announced.card) : null;
    window.__arrived.push([card, performance.timeOrigin + performance.now()]);
  });
  return source;
};
window.EventSource.CLOSED = PageEventSource.CLOSED;
document.addEventListener("DOMContentLoaded", () => {
  const node = document.getElementById("announced");
  new MutationObserver(() => {
    const card = node.querySelector(".big-card");
    if (card) window.__seen.push([card.textContent, performance.timeOrigin + performance.now()]);
  }).observe(node, { childList: true, subtree: true, characterData: true });
});
"""


@contextmanager
def served(table: Table) -> Iterator[str]:
    """The app over `table` on the server `run` uses, on a free loopback port."""
    app = create_app(table, {"SSE_HEARTBEAT_S": 5.0}, pin=RefereePin.from_pin(PIN))
    server = create_server(app, "127.0.0.1", 0)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        table.close()
        server.close()
        thread.join(timeout=5)


def percentile(values: list[float], share: float) -> float:
    """The `share` quantile (0…1) by the nearest-rank method."""
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))]


@contextmanager
def watchers(url: str, count: int) -> Iterator[None]:
    """`count` event streams held open by plain clients reading every message."""
    import http.client

    stop = threading.Event()
    connections: list[http.client.HTTPConnection] = []

    def watch() -> None:
        host, port = url.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=30)
        connections.append(connection)
        connection.request("GET", "/api/events")
        response = connection.getresponse()
        while not stop.is_set() and response.readline():
            pass

    threads = [threading.Thread(target=watch, daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    try:
        yield
    finally:
        stop.set()
        for connection in connections:
            connection.close()


def latency(pages: int, samples: int, seed: int, watching: int = 0) -> dict[str, float]:
    """p50/p95/max in ms from `table.announce` to the DOM of `pages` open pages (with
    `watching` more streams open); also to the message's arrival in the page, and from arrival
    to the DOM."""
    rng = random.Random(seed)
    table = Table(load_profile("brandi-4"), simulated=True,
                  hardware={"camera": "none", "leds": "none"})
    table.setup(SETUP)
    with served(table) as url, watchers(url, watching), chromium(UNTHROTTLED) as browser:
        opened = []
        for _ in range(pages):
            context = browser.new_context(viewport={"width": 1100, "height": 800},
                                          bypass_csp=True)
            context.add_init_script(RECORDER)
            page = context.new_page()
            page.goto(url + "/")
            page.wait_for_selector("#connection:not(.lost)")
            opened.append(page)
        time.sleep(1.0)
        events: list[tuple[str, float]] = []
        card = None
        for _ in range(samples):
            card = rng.choice([c for c in START_CARDS if c != card])
            started = time.time() * 1000
            table.announce(card)
            events.append(("Joker" if card == "JOKER" else card, started))
            time.sleep(rng.uniform(0.25, 0.45))
        time.sleep(1.0)
        seen = [page.evaluate("window.__seen") for page in opened]
        arrived = [page.evaluate("window.__arrived") for page in opened]
    shown_ms, arrived_ms, in_page_ms = [], [], []
    for index, (card, started) in enumerate(events):
        until = events[index + 1][1] if index + 1 < len(events) else float("inf")
        for records, messages in zip(seen, arrived, strict=True):
            shown = first(records, card, started, until)
            message = first(messages, card, started, until)
            if shown is not None:
                shown_ms.append(shown - started)
            if message is not None:
                arrived_ms.append(message - started)
            if shown is not None and message is not None:
                in_page_ms.append(shown - message)
    return {"pages": pages, "samples": len(shown_ms), "missing": samples * pages - len(shown_ms),
            "p50": statistics.median(shown_ms), "p95": percentile(shown_ms, 0.95),
            "max": max(shown_ms), "arrived_p50": statistics.median(arrived_ms),
            "arrived_p95": percentile(arrived_ms, 0.95),
            "in_page_p50": statistics.median(in_page_ms),
            "in_page_p95": percentile(in_page_ms, 0.95)}


def first(records: list[list[Any]], card: str, start: float, until: float) -> float | None:
    """The first time a page recorded `card` in [start, until), or None."""
    times = [at for text, at in records if text == card and start <= at < until]
    return min(times) if times else None


def weight() -> dict[str, int]:
    """Bytes of the board view's HTML and its script and style files, raw and gzipped."""
    table = Table(load_profile("brandi-4"), simulated=True,
                  hardware={"camera": "none", "leds": "none"})
    client = create_app(table, {"TESTING": True}).test_client()
    html = client.get("/").data
    parts = {"html": html}
    for asset in re.findall(rb'(?:src|href)="(/static/[^"]+)"', html):
        parts[asset.decode().rsplit("/", 1)[1]] = client.get(asset.decode()).data
    sizes = {name: len(data) for name, data in parts.items()}
    sizes["total"] = sum(len(data) for data in parts.values())
    sizes["total_gzip"] = sum(len(gzip.compress(data, 9)) for data in parts.values())
    return sizes


# -- screenshots --------------------------------------------------------------------------

def play(table: Table, moves: int, rng: random.Random) -> None:
    """Play `moves` legal moves with cards chosen by `rng` (the referee announces)."""
    from companion.rules import Position, legal_moves, parse_card

    cards = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "JOKER"]
    for _ in range(moves):
        state = table.state()
        if state["phase"] != "play":
            return
        position = Position.from_json(state["position"])
        for card in rng.sample(cards, len(cards)):
            options = legal_moves(position, parse_card(card))
            if options:
                table.announce(card)
                table.observe(position=rng.choice(options).result.to_json())
                break
        else:
            table.fold()


def screenshots(folder: Path, seed: int) -> list[Path]:
    """The main views, as docs/page.md shows them."""
    from companion.table.camera import CameraLoop, rendered_source
    from firmware_bridge.animator import Animator
    from firmware_bridge.config import LedConfig
    from firmware_bridge.strip import open_strip

    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    profile = load_profile("brandi-4")
    made: list[Path] = []
    desktop = {"viewport": {"width": 1280, "height": 860}}
    phone = {"viewport": {"width": 360, "height": 780}, "device_scale_factor": 2,
             "has_touch": True}
    with open_strip(LedConfig(backend="sim"), led_count=profile.led_count) as strip, \
            Animator(strip) as animator:
        table = Table(profile, simulated=True, hardware={"camera": "sim", "leds": "sim"},
                      leds=animator)
        strip.add_listener(lambda shown: table.mirror_leds(shown.colors))
        with served(table) as url, chromium(UNTHROTTLED) as browser:
            def shot(page: Any, name: str, full: bool = False) -> None:
                page.wait_for_selector("#toast", state="hidden")
                page.evaluate("window.scrollTo(0, 0)")
                page.wait_for_timeout(300)
                path = folder / f"{name}.png"
                page.screenshot(path=str(path), full_page=full)
                made.append(path)

            referee = browser.new_context(locale="de-CH", **desktop).new_page()
            referee.goto(url + "/setup")
            referee.click("#login-open")
            referee.fill("#pin", PIN)
            referee.click("#login-submit")
            referee.wait_for_selector("body[data-role=referee]")
            for row, player in enumerate(PLAYERS):
                referee.locator("#setup-form input[name=name]").nth(row).fill(player["name"])
            shot(referee, "setup", full=True)
            referee.click("#start-game")
            referee.wait_for_selector("body[data-phase=play]")
            play(table, 14, rng)
            mover = table.state()["position"]["turn"]
            announce_playable(table, rng)
            referee.click("#seats-box summary")
            link = referee.locator(f'#seats li[data-seat="{mover}"] a.seat-link') \
                .get_attribute("href")
            referee.click("#seats-box summary")
            shot(referee, "board-page")
            seat = browser.new_context(locale="de-CH", **phone).new_page()
            seat.goto(link)
            seat.wait_for_selector("body[data-role=seat]")
            shot(seat, "phone-seat", full=True)
            seat.click("#manual-open")
            seat.wait_for_selector("#results .result")
            shot(seat, "manual-entry", full=True)
            dispute(table)
            referee.wait_for_selector("#verdict.illegal")
            shot(referee, "verdict-dispute", full=True)
            referee.click("#seats-box summary")
            shot(referee, "seats", full=True)
            referee.click("#seats-box summary")
            english = browser.new_context(locale="en-GB", **desktop).new_page()
            english.goto(url + "/")
            english.wait_for_selector("#verdict.illegal")
            shot(english, "verdict-dispute-en")
            table.observe(position=table.state()["position"])   # put back: the dispute ends
            play(table, 1, rng)
            referee.click('nav a[data-view="history"]')
            referee.wait_for_selector("#moves li[data-n]")
            referee.locator("#replay").fill("8")
            shot(referee, "history")
            # The camera view with the simulated camera's live image (the table's board
            # rendered and read): a camera loop only now, so the moves above are the seed's.
            with CameraLoop(table, rendered_source(table), simulated=True) as loop:
                take_reference(table)
                read = loop.frames_read
                while loop.frames_read <= read:     # a frame read with the reference
                    time.sleep(0.1)
                referee.click('nav a[data-view="calibration"]')
                referee.wait_for_selector("#camera-image:not([hidden])")   # loaded
                shot(referee, "camera", full=True)
            referee.click('nav a[data-view="settings"]')
            shot(referee, "settings", full=True)
    return made


def take_reference(table: Table, timeout_s: float = 30.0) -> None:
    """The reference frame, as soon as the camera has delivered one."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            table.take_reference()
            return
        except TableError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def announce_playable(table: Table, rng: random.Random) -> str:
    """The player to move announces a card that has legal moves."""
    for card in rng.sample(["7", "5", "8", "6", "4", "10", "9", "3", "2", "Q", "A", "K"], 12):
        try:
            table.announce(card)
            return card
        except TableError:
            continue
    raise RuntimeError("no card can be played in this position")


def dispute(table: Table) -> None:
    """The player to move makes a move that is not legal: a legal result with one marble one
    field too far."""
    from companion.rules import Position, legal_moves, parse_card

    state = table.state()
    position = Position.from_json(state["position"])
    mover = position.turn
    for move in legal_moves(position, parse_card(state["announced"]["card"])):
        result = move.result.to_json()
        pegs = result["players"][mover]["pegs"]
        for index, peg in enumerate(pegs):
            if peg.startswith("T"):
                field = (int(peg.strip("T*")) + 1) % (16 * position.board)
                occupied = {p.strip("*") for player in result["players"] for p in player["pegs"]}
                if f"T{field}" in occupied:
                    continue
                pegs[index] = f"T{field}"
                judged = table.observe(position=result)
                if judged["pending"] == "illegal":
                    return
                table.undo() if judged["moves"] else None
    raise RuntimeError("no illegal variation of a legal move was found")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, nargs="+", default=[1, 40])
    parser.add_argument("--watchers", type=int, default=0,
                        help="more event streams held open by plain HTTP clients (default 0)")
    parser.add_argument("--samples", type=int, default=60, help="events per run (default 60)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--screenshots", type=Path, metavar="FOLDER",
                        help="make the screenshots of docs/page.md into FOLDER instead")
    args = parser.parse_args()
    if args.screenshots:
        for path in screenshots(args.screenshots, args.seed):
            print(path)
        return 0
    sizes = weight()
    print("page weight (bytes): " + ", ".join(f"{name} {size}" for name, size in sizes.items()))
    for pages in args.pages:
        figures = latency(pages, args.samples, args.seed, args.watchers)
        f = figures
        print(f"{pages:>2} page(s), {args.watchers} watchers: {f['samples']} samples "
              f"({f['missing']} not shown before the next event): event → DOM "
              f"p50 {f['p50']:.1f} ms, p95 {f['p95']:.1f} ms, max {f['max']:.1f} ms; "
              f"event → message in the page p50 {f['arrived_p50']:.1f} ms, "
              f"p95 {f['arrived_p95']:.1f} ms; message → DOM p50 {f['in_page_p50']:.1f} ms, "
              f"p95 {f['in_page_p95']:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
