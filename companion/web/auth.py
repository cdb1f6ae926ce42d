"""Who may do what: watchers read, a seat acts for its own player on its turn, the referee (who
knows the PIN) does everything.

The role lives in the signed session cookie (`HttpOnly`, `SameSite=Strict`). A seat is joined
with its secret token (from the QR code on the referee screen); revoking a seat gives it a new
token, and every phone holding the old one falls back to watching. Failed PIN attempts are
throttled per client address.
"""

from __future__ import annotations

import hmac
import json
import os
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import wraps
from pathlib import Path
from typing import Any, cast

from flask import Blueprint, Response, current_app, g, jsonify, redirect, request, session
from flask_wtf.csrf import generate_csrf  # type: ignore[import-untyped]
from werkzeug.exceptions import Forbidden, NotFound
from werkzeug.wrappers import Response as WerkzeugResponse

from companion.web.context import current_table
from companion.web.security import View, csrf_exempt, error, json_body

bp = Blueprint("auth", __name__)

SEATS_FILE = "web-seats.json"
SECRET_FILE = "web-secret"


@dataclass(frozen=True)
class Access:
    """What the client of this request may do."""

    referee: bool
    seat: int | None        # index in play order of the player this client sits for

    @property
    def role(self) -> str:
        """`referee`, `seat` or `watcher`."""
        if self.referee:
            return "referee"
        return "seat" if self.seat is not None else "watcher"


class SeatTokens:
    """One secret token per player of the current game (index in play order).

    Tokens survive a restart when a file is given. A new game keeps the token of every seat
    whose player (name, colour, place) is unchanged and gives the others new ones.
    """

    def __init__(self, path: Path | None = None):
        self._path = path
        self._lock = threading.Lock()
        self._seats: list[dict[str, Any]] = []      # {"player": {...}, "token": str}
        if path is not None and path.exists():
            try:
                loaded = json.loads(path.read_text())
            except (OSError, ValueError):
                loaded = []
            if isinstance(loaded, list):
                self._seats = [seat for seat in loaded if isinstance(seat, dict)
                               and isinstance(seat.get("token"), str) and "player" in seat]

    def sync(self, players: Sequence[dict[str, Any]]) -> None:
        """Match the seats to the players of the game now."""
        wanted = [_identity(player) for player in players]
        with self._lock:
            if [seat["player"] for seat in self._seats] == wanted:
                return
            old = self._seats
            self._seats = [old[i] if i < len(old) and old[i]["player"] == who
                           else {"player": who, "token": secrets.token_urlsafe(16)}
                           for i, who in enumerate(wanted)]
            self._save()

    def count(self) -> int:
        """Number of seats (players of the game)."""
        with self._lock:
            return len(self._seats)

    def token(self, seat: int) -> str | None:
        """The token of a seat, or None when there is no such seat."""
        with self._lock:
            return self._seats[seat]["token"] if 0 <= seat < len(self._seats) else None

    def valid(self, seat: int, token: str) -> bool:
        """True when `token` is the seat's current token."""
        current = self.token(seat)
        return current is not None and hmac.compare_digest(current, token)

    def seat_of(self, token: str) -> int | None:
        """The seat whose current token this is."""
        with self._lock:
            tokens = [seat["token"] for seat in self._seats]
        found = None
        for seat, current in enumerate(tokens):
            if hmac.compare_digest(current, token):
                found = seat
        return found

    def revoke(self, seat: int) -> str:
        """Give a seat a new token; the old one stops working."""
        with self._lock:
            self._seats[seat]["token"] = secrets.token_urlsafe(16)
            self._save()
            return str(self._seats[seat]["token"])

    def _save(self) -> None:
        if self._path is None:
            return
        _write_private(self._path, json.dumps(self._seats))


def _identity(player: dict[str, Any]) -> dict[str, Any]:
    return {"name": player.get("name"), "color": player.get("color"), "at": player.get("at")}


def _write_private(path: Path, text: str) -> None:
    """Write a file only its owner can read, atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as file:
        file.write(text)
    os.replace(temporary, path)


def load_or_create_secret(state_dir: Path | None) -> str:
    """The key that signs session cookies: kept in the state directory so that logins and
    seats survive a restart; without one a new key each start."""
    if state_dir is None:
        return secrets.token_hex(32)
    path = state_dir / SECRET_FILE
    try:
        kept = path.read_text().strip()
    except OSError:
        kept = ""
    if len(kept) >= 32:
        return kept
    key = secrets.token_hex(32)
    _write_private(path, key)
    return key


class PinThrottle:
    """At most `attempts` failed PIN tries per client within `window_s` seconds."""

    def __init__(self, attempts: int = 5, window_s: float = 60.0,
                 clock: Callable[[], float] = time.monotonic):
        self.attempts = attempts
        self.window_s = window_s
        self.clock = clock
        self._lock = threading.Lock()
        self._failures: dict[str, deque[float]] = {}

    def wait_s(self, client: str) -> int:
        """Seconds until this client may try again (0: now)."""
        with self._lock:
            failures = self._recent(client)
            if len(failures) < self.attempts:
                return 0
            return max(1, int(failures[0] + self.window_s - self.clock() + 0.999))

    def failed(self, client: str) -> int:
        """Count a failed try; the tries left in the window."""
        with self._lock:
            failures = self._recent(client)
            failures.append(self.clock())
            self._failures[client] = failures
            return max(0, self.attempts - len(failures))

    def succeeded(self, client: str) -> None:
        """A right PIN clears the client's failures."""
        with self._lock:
            self._failures.pop(client, None)

    def _recent(self, client: str) -> deque[float]:
        now = self.clock()
        for other in [c for c, times in self._failures.items()
                      if not times or times[-1] <= now - self.window_s]:
            del self._failures[other]
        failures = self._failures.get(client, deque())
        while failures and failures[0] <= now - self.window_s:
            failures.popleft()
        return failures


def seats() -> SeatTokens:
    """The seat tokens of this app, matched to the game now."""
    tokens = cast(SeatTokens, current_app.extensions["dog_seats"])
    tokens.sync(current_table().state().get("players") or [])
    return tokens


def current_access() -> Access:
    """The role of this request's client (worked out once per request)."""
    if "dog_access" in g:
        return cast(Access, g.dog_access)
    referee = float(session.get("referee_until", 0)) > time.time()
    seat = None
    held = session.get("seat")
    if isinstance(held, dict) and isinstance(held.get("i"), int) \
            and isinstance(held.get("token"), str):
        if seats().valid(held["i"], held["token"]):
            seat = int(held["i"])
        else:
            session.pop("seat", None)          # revoked, or a new game without that seat
    g.dog_access = Access(referee=referee, seat=seat)
    return cast(Access, g.dog_access)


def referee_only(view: View) -> View:
    """Refuse the view with 403 unless the client logged in with the referee PIN."""
    @wraps(view)
    def guarded(*args: Any, **kwargs: Any) -> Any:
        if not current_access().referee:
            raise Forbidden("this needs the referee: log in with the PIN (POST /api/login)")
        return view(*args, **kwargs)
    return cast(View, guarded)


def acting_seat(what: str) -> int | None:
    """For an action of the player to move: None when the referee acts, else the client's
    seat; a watcher is refused with 403."""
    access = current_access()
    if access.referee:
        return None
    if access.seat is None:
        raise Forbidden(f"{what} needs a seat (join it by its QR code) or the referee PIN")
    return access.seat


def session_answer() -> dict[str, Any]:
    """The client's role, seat and CSRF token (the `/api/session` object)."""
    access = current_access()
    return {"role": access.role, "seat": access.seat, "csrf": generate_csrf()}


def client_address() -> str:
    """The address PIN failures are counted by."""
    return request.remote_addr or "unknown"


@bp.post("/api/login")
@csrf_exempt
def login() -> Response:
    """`{"pin": "123456"}` → `{"role": "referee", "csrf": TOKEN}` and the session cookie."""
    throttle = cast(PinThrottle, current_app.extensions["dog_pin_throttle"])
    client = client_address()
    wait = throttle.wait_s(client)
    if wait:
        return error(429, f"too many wrong PINs from this device; try again in {wait} s",
                     {"Retry-After": str(wait)})
    body = json_body({"pin": str}, required=("pin",))
    pin = current_app.extensions["dog_pin"]
    if pin is None:
        return error(403, "this table has no referee PIN")
    if not pin.check(body["pin"]):
        left = throttle.failed(client)
        return error(403, f"the PIN is wrong ({left} {'try' if left == 1 else 'tries'} "
                          "left this minute)")
    throttle.succeeded(client)
    session.permanent = True
    session["referee_until"] = time.time() + current_app.config["REFEREE_SESSION_S"]
    g.pop("dog_access", None)
    return jsonify(session_answer())


@bp.post("/api/logout")
def logout() -> Response:
    """Drop the referee role and the seat: the client watches."""
    session.pop("referee_until", None)
    session.pop("seat", None)
    g.pop("dog_access", None)
    return jsonify(session_answer())


@bp.get("/api/session")
def whoami() -> Response:
    """`{"role": ..., "seat": i | null, "csrf": TOKEN}` for a page that (re)loads."""
    return jsonify(session_answer())


def seat_entry(seat: int, player: dict[str, Any], token: str) -> dict[str, Any]:
    """A seat as the referee sees it: the player, the token and the link its QR code shows."""
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    return {"seat": seat, **_identity(player), "token": token,
            "url": f"{base.rstrip('/')}/join/{token}"}


def _players() -> list[dict[str, Any]]:
    return list(current_table().state().get("players") or [])


def _known_seat(seat: int) -> None:
    count = seats().count()
    if not 0 <= seat < count:
        raise NotFound(f"there is no seat {seat} (the game has {count} players)")


@bp.get("/api/seats")
@referee_only
def seat_list() -> Response:
    """Every seat with its join token and link (referee only)."""
    tokens, players = seats(), _players()
    entries = []
    for seat, player in enumerate(players):
        token = tokens.token(seat)
        if token is not None:
            entries.append(seat_entry(seat, player, token))
    return jsonify({"seats": entries})


@bp.post("/api/seats/<int:seat>/revoke")
@referee_only
def revoke(seat: int) -> Response:
    """A new token for a seat: whoever held the old one only watches now."""
    json_body({})
    _known_seat(seat)
    token = seats().revoke(seat)
    return jsonify(seat_entry(seat, _players()[seat], token))


def _take_seat(seat: int) -> None:
    session.permanent = True
    session["seat"] = {"i": seat, "token": seats().token(seat)}
    g.pop("dog_access", None)


@bp.post("/api/seats/<int:seat>/join")
@csrf_exempt
def join(seat: int) -> Response:
    """`?token=T`: this client sits for player `seat` → `{"role", "seat", "csrf"}`."""
    json_body({})
    _known_seat(seat)
    token = request.args.get("token", "")
    if not token:
        return error(400, "the query parameter 'token' is missing")
    if not seats().valid(seat, token):
        return error(403, f"this is not the token of seat {seat} (revoked or mistyped)")
    _take_seat(seat)
    return jsonify(session_answer())


@bp.get("/join/<token>")
def join_link(token: str) -> Response | WerkzeugResponse:
    """The link of a seat's QR code: take the seat and go to the page."""
    seat = seats().seat_of(token)
    if seat is None:
        return error(404, "this seat link is no longer valid; ask the referee for a new one")
    _take_seat(seat)
    return redirect("/", code=303)
