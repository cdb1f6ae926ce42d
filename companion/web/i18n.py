"""The page's words in German and English."""

from __future__ import annotations

from flask import Request

LANGUAGES = ("de", "en")

TEXTS: dict[str, dict[str, str]] = {
    "title": {"de": "Dog Companion", "en": "Dog Companion"},
    "tagline": {"de": "Der Schiedsrichter am Dog-Tisch", "en": "The referee at the Dog table"},
    "board": {"de": "Spielbrett", "en": "Board"},
    "simulated": {"de": "Simulierter Tisch: keine Kamera und kein LED-Streifen gefunden",
                  "en": "Simulated table: no camera and no LED strip found"},
    "hardware": {"de": "Hardware", "en": "Hardware"},
    "camera": {"de": "Kamera", "en": "Camera"},
    "leds": {"de": "LED-Streifen", "en": "LED strip"},
    "connected": {"de": "verbunden", "en": "connected"},
    "reconnecting": {"de": "Verbindung unterbrochen, verbinde neu …",
                     "en": "Connection lost, reconnecting …"},
    "marbles": {"de": "Kugeln auf dem Brett", "en": "Marbles on the board"},
    "language": {"de": "English", "en": "Deutsch"},
}


def choose_language(request: Request, default: str) -> str:
    """`?lang=` wins, then the browser's Accept-Language, then the configured default."""
    asked = request.args.get("lang", "")
    if asked in LANGUAGES:
        return asked
    return request.accept_languages.best_match(LANGUAGES) or default


def texts(language: str) -> dict[str, str]:
    """All texts of the page in one language."""
    return {key: words[language] for key, words in TEXTS.items()}
