"""The table's push buttons drive the table: done, cannot play, undo request, next."""

from __future__ import annotations

import logging
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING

from companion.table.errors import TableError
from companion.table.session import Table

if TYPE_CHECKING:
    from firmware_bridge.buttons import ButtonEvent, ButtonPanel

log = logging.getLogger(__name__)


class ButtonDriver:
    """Subscribes to a `ButtonPanel` and turns each press into a table action:

    - ``confirm``: the move is done (:meth:`Table.done`);
    - ``cannot_play``: the player to move cannot play (:meth:`Table.fold`);
    - ``undo``: asks the referee to take back the last move (:meth:`Table.request_undo`;
      the referee confirms with the PIN on the page);
    - ``next``: ends the partner exchange reminder (:meth:`Table.end_exchange`).

    A press the table refuses is logged and shown on the page, never raised.
    """

    def __init__(self, table: Table, panel: ButtonPanel) -> None:
        self.table = table
        self.panel = panel
        self._actions: dict[str, Callable[[], object]] = {
            "confirm": table.done, "cannot_play": table.fold,
            "undo": table.request_undo, "next": table.end_exchange}
        self._unsubscribe: Callable[[], None] | None = None

    def start(self) -> ButtonDriver:
        """Listen to the panel."""
        self._unsubscribe = self.panel.subscribe(self.pressed)
        return self

    def pressed(self, event: ButtonEvent) -> None:
        """One press: its action on the table."""
        action = self._actions.get(event.name)
        if action is None:
            return
        try:
            action()
        except TableError as error:
            log.info("button %s: %s", event.name, error)
            self.table.notice(f"{event.name}: {error}")

    def close(self) -> None:
        """Stop listening."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def __enter__(self) -> ButtonDriver:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()
