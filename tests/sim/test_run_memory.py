"""`dog-companion run` keeps glibc from holding on to freed frame buffers."""

from __future__ import annotations

import sys

import pytest

from companion.commands.malloc import MALLOC_ARENAS, MALLOC_MMAP_BYTES, limit_malloc


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt only")
def test_arenas_and_mapping_threshold_are_set_unless_the_environment_sets_them() -> None:
    assert limit_malloc({"MALLOC_ARENA_MAX": "4", "MALLOC_MMAP_THRESHOLD_": "65536"}) == []
    assert limit_malloc({"MALLOC_ARENA_MAX": "4"}) == [
        f"MALLOC_MMAP_THRESHOLD_={MALLOC_MMAP_BYTES}"]
    assert limit_malloc({}) == [f"MALLOC_ARENA_MAX={MALLOC_ARENAS}",
                                f"MALLOC_MMAP_THRESHOLD_={MALLOC_MMAP_BYTES}"]
