"""LEDs go dark when the process ends: at interpreter exit and on SIGTERM.

Open strips register here. The first registration installs an `atexit` hook and, from the main
thread, a SIGTERM handler that blanks every open strip and then hands the signal on: to the
previous Python handler if there was one, else by dying of SIGTERM as the default would.
"""

from __future__ import annotations

import atexit
import logging
import os
import signal
import threading
import weakref
from types import FrameType
from typing import Any, Protocol

log = logging.getLogger(__name__)


class Blankable(Protocol):
    """Anything that can be turned dark and released: an open `LedStrip`."""

    def close(self) -> None: ...


_open: weakref.WeakSet[Any] = weakref.WeakSet()
_lock = threading.Lock()
_installed = False
_previous_sigterm: Any = signal.SIG_DFL


def register(strip: Blankable) -> None:
    """Blank and close `strip` at exit or on SIGTERM unless it is closed before."""
    with _lock:
        _open.add(strip)
        _install_once()


def unregister(strip: Blankable) -> None:
    """Forget `strip` (it was closed by its owner)."""
    with _lock:
        _open.discard(strip)


def blank_all() -> None:
    """Close every registered strip (closing turns it dark); errors are logged, not raised."""
    with _lock:
        strips = list(_open)
    for strip in strips:
        try:
            strip.close()
        except Exception:
            log.exception("could not blank %r", strip)


def _install_once() -> None:
    global _installed, _previous_sigterm
    if _installed:
        return
    _installed = True
    atexit.register(blank_all)
    if threading.current_thread() is not threading.main_thread():
        log.debug("not on the main thread: no SIGTERM handler, LEDs blank at exit only")
        return
    _previous_sigterm = signal.signal(signal.SIGTERM, _on_sigterm)


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    blank_all()
    previous = _previous_sigterm
    if callable(previous):
        previous(signum, frame)
    elif previous != signal.SIG_IGN:
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
