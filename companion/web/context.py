"""The table of the app that serves the current request (as flaskr's `get_db`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from flask import current_app

if TYPE_CHECKING:
    from companion.table import Table


def current_table() -> Table:
    """The table the app of this request serves."""
    return cast("Table", current_app.extensions["dog_table"])
