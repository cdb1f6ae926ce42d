"""The referee's PIN: made on first start, stored only as a salted scrypt hash."""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from pathlib import Path

FILE_NAME = "referee-pin.json"
PIN_DIGITS = 6
_SCRYPT = {"n": 2 ** 14, "r": 8, "p": 1}


def _hash(pin: str, salt: bytes) -> bytes:
    return hashlib.scrypt(pin.encode(), salt=salt, dklen=32, **_SCRYPT)


class RefereePin:
    """Checks a PIN against the hash kept in the state directory."""

    def __init__(self, salt: bytes, hashed: bytes) -> None:
        self._salt = salt
        self._hashed = hashed

    @classmethod
    def from_pin(cls, pin: str) -> RefereePin:
        """A fresh salted hash of ``pin``."""
        salt = secrets.token_bytes(16)
        return cls(salt, _hash(pin, salt))

    @classmethod
    def load_or_create(cls, state_dir: str | Path,
                       env_pin: str | None) -> tuple[RefereePin, str | None]:
        """The PIN of this table and, when it was just made, the new PIN in clear (to print
        once on the console and in the log).

        ``env_pin`` (``DOG_REFEREE_PIN``) sets the PIN and replaces a stored one; without it
        the stored hash is used, or a random 6-digit PIN is made and its hash stored.
        """
        path = Path(state_dir) / FILE_NAME
        if env_pin is not None:
            pin_text = env_pin.strip()
            if not pin_text:
                raise ValueError("DOG_REFEREE_PIN is empty: give a PIN or unset it")
            pin = cls.from_pin(pin_text)
            pin.save(path)
            return pin, None
        if path.is_file():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                return cls(bytes.fromhex(data["salt"]), bytes.fromhex(data["scrypt"])), None
            except (ValueError, KeyError, TypeError):
                pass    # unreadable: make a new one below
        new = "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS))
        pin = cls.from_pin(new)
        pin.save(path)
        return pin, new

    def save(self, path: Path) -> None:
        """Write the salt and hash (never the PIN), readable by the owner only."""
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump({"salt": self._salt.hex(), "scrypt": self._hashed.hex(), **_SCRYPT}, out)
        os.replace(temporary, path)

    def check(self, text: str) -> bool:
        """Whether ``text`` is the PIN (compared in constant time)."""
        return hmac.compare_digest(_hash(str(text).strip(), self._salt), self._hashed)
