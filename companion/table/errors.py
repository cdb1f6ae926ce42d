"""The one error the table's API raises."""

from __future__ import annotations


class TableError(Exception):
    """A refused action: ``message`` is one sentence naming the problem, ``status`` the HTTP
    status the web layer answers with (400 malformed, 403 not allowed, 404 unknown, 409
    conflict). A refused action changes nothing and writes nothing to the journal."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.message = message
        self.status = status

    def __str__(self) -> str:
        return self.message
