"""How bots reach the table: its public interfaces only, in process or over HTTP.

:class:`TableClient` is what a bot may do at a table: read the state, announce a card, say
"cannot play", and (as the referee) set up a game, take the camera's reference frame and
take back a move. Moving marbles is not the table's business: bots move them on the virtual
board (:mod:`companion.sim.virtual`), and the table sees them through its camera.

* :class:`LocalTable` calls the public methods of a `companion.table.Table` in this process.
* :class:`HttpTable` speaks INTERFACES.md section 5 (``dog-table/1``) to a running
  ``dog-companion run`` or ``demo``: it logs in with the referee PIN and, for each seat it
  plays, joins that seat with the seat's token, so a bot acts with exactly the rights of a
  player at its seat.

A refused action raises :class:`ClientError` with the table's sentence and HTTP status.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable
from http.cookiejar import CookieJar
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from companion.table import Table

__all__ = ["ClientError", "HttpTable", "LocalTable", "TableClient", "Transport",
           "urllib_transport"]


class ClientError(RuntimeError):
    """The table refused an action: its sentence and the HTTP status (409 conflict, …)."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


class TableClient(Protocol):
    """What a bot may do at the table."""

    def state(self) -> dict[str, Any]:
        """The table's state (``/api/state``)."""
        ...

    def setup(self, request: dict[str, Any]) -> dict[str, Any]:
        """Referee: start a new game (``POST /api/setup``)."""
        ...

    def take_reference(self) -> dict[str, Any]:
        """Referee: the camera's frame now becomes the reader's reference."""
        ...

    def announce(self, card: str, player: int) -> dict[str, Any]:
        """Player ``player`` announces ``card`` (``POST /api/cards``)."""
        ...

    def fold(self, hand: list[str] | None, player: int) -> dict[str, Any]:
        """Player ``player`` cannot play (``POST /api/fold``)."""
        ...

    def observe(self, position: dict[str, Any], player: int) -> dict[str, Any]:
        """Player ``player`` enters the board by hand (``POST /api/observe``), judged at once."""
        ...

    def done(self, player: int) -> dict[str, Any]:
        """Player ``player`` says the move is finished (``POST /api/done``): the camera's
        reading is judged now (a Jack without effect leaves the board as it was)."""
        ...

    def undo(self, to: int | None = None) -> dict[str, Any]:
        """Referee: take back the last move, or go back to right after move ``to``."""
        ...

    def override(self, position: dict[str, Any] | None = None) -> dict[str, Any]:
        """Referee: accept the disputed move, or set the board to ``position``."""
        ...


class LocalTable:
    """A table in this process, through its public methods."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def _call(self, action: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        from companion.table import TableError

        try:
            return action()
        except TableError as error:
            raise ClientError(str(error), error.status) from None

    def state(self) -> dict[str, Any]:
        return self.table.state()

    def setup(self, request: dict[str, Any]) -> dict[str, Any]:
        return self._call(lambda: self.table.setup(request))

    def take_reference(self) -> dict[str, Any]:
        return self._call(self.table.take_reference)

    def announce(self, card: str, player: int) -> dict[str, Any]:
        return self._call(lambda: self.table.announce(card, player))

    def fold(self, hand: list[str] | None, player: int) -> dict[str, Any]:
        return self._call(lambda: self.table.fold(hand, player))

    def observe(self, position: dict[str, Any], player: int) -> dict[str, Any]:
        return self._call(lambda: self.table.observe(position=position))

    def done(self, player: int) -> dict[str, Any]:
        return self._call(self.table.done)

    def undo(self, to: int | None = None) -> dict[str, Any]:
        return self._call(lambda: self.table.undo(to))

    def override(self, position: dict[str, Any] | None = None) -> dict[str, Any]:
        return self._call(lambda: self.table.override(position))


Transport = Callable[[str, str, dict[str, Any] | None, dict[str, str], CookieJar],
                     tuple[int, Any]]
"""``(method, path, body, headers, cookies) -> (status, decoded JSON answer)``."""


def urllib_transport(base_url: str, timeout: float = 10.0) -> Transport:
    """Requests to ``base_url`` (``http://host:port``) with the standard library."""
    base = base_url.rstrip("/")

    def send(method: str, path: str, body: dict[str, Any] | None, headers: dict[str, str],
             cookies: CookieJar) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(base + path, data=data, method=method,
                                         headers={**headers, "Accept": "application/json"})
        if data is not None:
            request.add_header("Content-Type", "application/json")
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(cookies))
        try:
            with opener.open(request, timeout=timeout) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            raw = error.read()
            try:
                return error.code, json.loads(raw or b"null")
            except ValueError:
                return error.code, {"error": raw.decode(errors="replace")[:200]}

    return send


class _Session:
    """One client of the page: its cookies and its CSRF token."""

    def __init__(self, transport: Transport) -> None:
        self.transport = transport
        self.cookies = CookieJar()
        self.csrf = ""

    def request(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        headers = {"X-CSRF-Token": self.csrf} if self.csrf else {}
        status, answer = self.transport(method, path, body, headers, self.cookies)
        if status >= 400:
            message = answer.get("error") if isinstance(answer, dict) else None
            raise ClientError(str(message or f"HTTP {status} for {method} {path}"), status)
        if isinstance(answer, dict) and isinstance(answer.get("csrf"), str):
            self.csrf = answer["csrf"]
        return answer


class HttpTable:
    """A table over HTTP (``dog-table/1``): the referee's session, and one per joined seat."""

    def __init__(self, transport: Transport, pin: str) -> None:
        self.transport = transport
        self.referee = _Session(transport)
        self.referee.request("GET", "/api/session")
        self.referee.request("POST", "/api/login", {"pin": pin})
        self.seats: dict[int, _Session] = {}

    @classmethod
    def at(cls, base_url: str, pin: str) -> HttpTable:
        """A table served at ``base_url``."""
        return cls(urllib_transport(base_url), pin)

    def state(self) -> dict[str, Any]:
        answer: dict[str, Any] = self.referee.request("GET", "/api/state")
        return answer

    def setup(self, request: dict[str, Any]) -> dict[str, Any]:
        answer: dict[str, Any] = self.referee.request("POST", "/api/setup", request)
        self.seats.clear()
        return answer

    def take_reference(self) -> dict[str, Any]:
        answer: dict[str, Any] = self.referee.request("POST", "/api/reference", {})
        return answer

    def undo(self, to: int | None = None) -> dict[str, Any]:
        body = {} if to is None else {"to": to}
        answer: dict[str, Any] = self.referee.request("POST", "/api/undo", body)
        return answer

    def override(self, position: dict[str, Any] | None = None) -> dict[str, Any]:
        body = {} if position is None else {"position": position}
        answer: dict[str, Any] = self.referee.request("POST", "/api/override", body)
        return answer

    def announce(self, card: str, player: int) -> dict[str, Any]:
        answer: dict[str, Any] = self.seat(player).request("POST", "/api/cards", {"card": card})
        return answer

    def fold(self, hand: list[str] | None, player: int) -> dict[str, Any]:
        body = {} if hand is None else {"hand": hand}
        answer: dict[str, Any] = self.seat(player).request("POST", "/api/fold", body)
        return answer

    def observe(self, position: dict[str, Any], player: int) -> dict[str, Any]:
        answer: dict[str, Any] = self.seat(player).request("POST", "/api/observe",
                                                           {"position": position})
        return answer

    def done(self, player: int) -> dict[str, Any]:
        answer: dict[str, Any] = self.seat(player).request("POST", "/api/done", {})
        return answer

    def seat(self, player: int) -> _Session:
        """The session sitting for ``player`` (joined with the seat's token on first use)."""
        session = self.seats.get(player)
        if session is None:
            listing = self.referee.request("GET", "/api/seats")
            token = next(entry["token"] for entry in listing["seats"]
                         if entry["seat"] == player)
            session = _Session(self.transport)
            session.request("GET", "/api/session")
            session.request("POST", f"/api/seats/{player}/join?token={token}", {})
            self.seats[player] = session
        return session
