"""Keep glibc's heap from holding on to freed frame buffers (`run` and `demo`)."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping

MALLOC_ARENAS = 2
"""glibc malloc arenas for the whole process (``MALLOC_ARENA_MAX``, unless that is set)."""
MALLOC_MMAP_BYTES = 2 * 1024 * 1024
"""Blocks from this size on (the renderer's and reader's float working images, 3.7 MB at
640 × 480) get their own mapping, given back to the system when freed
(``MALLOC_MMAP_THRESHOLD_``, unless that is set). Smaller (the 0.9 MB frames too) costs
about a quarter more CPU per frame in page faults."""


def limit_malloc(environ: Mapping[str, str] = os.environ) -> list[str]:
    """Keep glibc's heap from holding on to freed frame buffers; called before any thread
    starts. Without it every thread that renders or reads frames gets an arena of its own
    and glibc raises its mapping threshold past the frames' size, so each arena keeps tens of
    MB of freed frames. Sets at most :data:`MALLOC_ARENAS` arenas and a fixed mapping
    threshold of :data:`MALLOC_MMAP_BYTES`, each unless the environment sets it; nothing
    off glibc. Returns the settings made."""
    if not sys.platform.startswith("linux"):
        return []
    import ctypes
    import ctypes.util

    try:
        mallopt = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").mallopt
    except (OSError, AttributeError):   # not glibc (musl has no mallopt)
        return []
    made = []
    for variable, option, value in (("MALLOC_ARENA_MAX", -8, MALLOC_ARENAS),
                                    ("MALLOC_MMAP_THRESHOLD_", -3, MALLOC_MMAP_BYTES)):
        if variable not in environ and mallopt(option, value):
            made.append(f"{variable}={value}")
    return made
