"""Running under systemd: readiness, status and a watchdog that pings only while healthy.

With `Type=notify` and `WatchdogSec=` in the unit, systemd sets `NOTIFY_SOCKET` and
`WATCHDOG_USEC`; outside systemd both are missing and every call here does nothing.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable

log = logging.getLogger(__name__)


class Service:
    """The companion's side of the sd_notify protocol (through the `sdnotify` library)."""

    def __init__(self, environ: dict[str, str] | None = None) -> None:
        env = os.environ if environ is None else environ
        self._notifier = None
        if env.get("NOTIFY_SOCKET"):
            import sdnotify

            self._notifier = sdnotify.SystemdNotifier()
        usec = env.get("WATCHDOG_USEC", "")
        self.watchdog_s = int(usec) / 1e6 if usec.isdigit() and int(usec) > 0 else None
        self._stop = threading.Event()

    def notify(self, message: str) -> None:
        """Send one sd_notify line, e.g. `READY=1` (nothing outside systemd)."""
        if self._notifier is not None:
            self._notifier.notify(message)

    def ready(self, status: str) -> None:
        """Tell systemd that the page is being served."""
        self.notify(f"READY=1\nSTATUS={status}")

    def stopping(self) -> None:
        """Tell systemd that the companion is shutting down; stop the watchdog."""
        self._stop.set()
        self.notify("STOPPING=1")

    def start_watchdog(self, healthy: Callable[[], bool]) -> threading.Thread | None:
        """Ping the watchdog at half its interval, but only while `healthy()` says so:
        a hung companion stops pinging and systemd restarts it."""
        if self.watchdog_s is None:
            return None
        interval = self.watchdog_s / 2

        def ping() -> None:
            while not self._stop.wait(interval):
                if healthy():
                    self.notify("WATCHDOG=1")
                else:
                    log.warning("health check failed: not pinging the watchdog")

        thread = threading.Thread(target=ping, name="watchdog", daemon=True)
        thread.start()
        return thread
