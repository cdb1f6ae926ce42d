"""Callbacks that want to hear about something (a shown frame, a button press)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")


class Listeners(Generic[T]):
    """A thread-safe list of callbacks; one failing callback does not stop the others."""

    def __init__(self, what: str) -> None:
        self._what = what
        self._callbacks: list[Callable[[T], object]] = []
        self._lock = threading.Lock()

    def add(self, callback: Callable[[T], object]) -> Callable[[], None]:
        """Call `callback(value)` on every `notify`; returns a function that removes it."""
        with self._lock:
            self._callbacks.append(callback)

        def remove() -> None:
            with self._lock:
                if callback in self._callbacks:
                    self._callbacks.remove(callback)

        return remove

    def notify(self, value: T) -> None:
        """Call every callback with `value`; errors are logged, not raised."""
        with self._lock:
            callbacks = list(self._callbacks)
        for callback in callbacks:
            try:
                callback(value)
            except Exception:
                log.exception("%s listener %r failed", self._what, callback)

    def clear(self) -> None:
        """Forget every callback."""
        with self._lock:
            self._callbacks.clear()
