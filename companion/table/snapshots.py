"""Camera snapshots of disputed moves: JPEG files next to the journal, oldest dropped past a
size limit."""

from __future__ import annotations

import re
from pathlib import Path

from companion.table.errors import TableError

FOLDER = "snapshots"
DEFAULT_LIMIT_BYTES = 50 * 1024 * 1024
_ID = re.compile(r"[0-9]+-[0-9]+-(before|after)")


class SnapshotStore:
    """JPEG files in ``state_dir/snapshots``, at most ``limit_bytes`` together."""

    def __init__(self, state_dir: Path, limit_bytes: int = DEFAULT_LIMIT_BYTES) -> None:
        self.folder = state_dir / FOLDER
        self.limit_bytes = limit_bytes

    def save(self, snapshot_id: str, jpeg: bytes) -> str:
        """Keep one snapshot; drop the oldest while the folder is over its limit."""
        if not _ID.fullmatch(snapshot_id):
            raise ValueError(f"snapshot id {snapshot_id!r} is not GAME-NUMBER-before|after")
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / f"{snapshot_id}.jpg").write_bytes(jpeg)
        files = sorted(self.folder.glob("*.jpg"), key=lambda p: (p.stat().st_mtime, p.name))
        total = sum(p.stat().st_size for p in files)
        while files and total > self.limit_bytes:
            oldest = files.pop(0)
            total -= oldest.stat().st_size
            oldest.unlink()
        return snapshot_id


def read_snapshot(state_dir: Path | None, snapshot_id: str) -> bytes:
    """The JPEG bytes of a kept snapshot; `TableError(404)` if there is none."""
    if state_dir is None or not isinstance(snapshot_id, str) or not _ID.fullmatch(snapshot_id):
        raise TableError(f"there is no snapshot {snapshot_id!r}", 404)
    path = state_dir / FOLDER / f"{snapshot_id}.jpg"
    if not path.is_file():
        raise TableError(f"there is no snapshot {snapshot_id!r} (dropped or never taken)", 404)
    return path.read_bytes()
