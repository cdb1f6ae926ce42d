"""The live table: where camera readings, card announcements, the rules and the LEDs meet.

    from companion.table import Table, TableError, RefereePin

The page, the buttons, the simulator and scripts use only this API (``docs/table.md``).
"""

from companion.table.board import BoardMap, ReadingError, start_holes
from companion.table.errors import TableError
from companion.table.pin import RefereePin
from companion.table.session import Table

__all__ = ["BoardMap", "ReadingError", "RefereePin", "Table", "TableError", "start_holes"]
