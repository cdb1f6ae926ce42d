"""Rule sets: the options in which the rule texts differ (docs/rulebook.md#options)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.rules.errors import PositionError, excerpt

__all__ = ["ALM_DOG_DEALS", "PRESETS", "SCHMIDT", "SWISS", "DealSequence", "RuleSet"]

START_PROTECTION = ("fresh", "always")
HOME_ENTRY = ("not_fresh", "from_behind")
DIRECTIONS = ("counter-clockwise", "clockwise")
TEAM_GAME = ("teams", "teams_or_individual")
MOST_CARDS = 13
"""The most cards a deal may give each player."""
_DEAL_KEYS = ("first", "cycle")


@dataclass(frozen=True)
class DealSequence:
    """How many cards every player receives per round (docs/rulebook.md#turns): the rounds
    of ``first`` once, then the rounds of ``cycle`` over and over.

    ``DealSequence((), (6, 5, 4, 3, 2))`` deals 6, 5, 4, 3, 2, 6, 5, … (the default);
    :data:`ALM_DOG_DEALS` deals 6, 5, 4, 3, 2, 5, 4, 3, 2, 5, … (ALM DOG). As JSON a plain
    cycle is a list, ``[6, 5, 4, 3, 2]``; with a first part it is an object,
    ``{"first": [6], "cycle": [5, 4, 3, 2]}``. Deal sequences compare by ``first`` and ``cycle``
    as written.
    """

    first: tuple[int, ...] = ()
    cycle: tuple[int, ...] = (6, 5, 4, 3, 2)

    def __post_init__(self) -> None:
        _check_counts("rules.deal_sequence.first", self.first)
        _check_counts("rules.deal_sequence.cycle", self.cycle)
        if not self.cycle:
            raise PositionError("rules.deal_sequence.cycle: () is empty")

    def cards(self, round_number: int) -> int:
        """The cards each player receives in round ``round_number`` (1 for the first deal)."""
        if round_number < 1:
            raise ValueError(f"round {round_number}: rounds are numbered from 1")
        if round_number <= len(self.first):
            return self.first[round_number - 1]
        return self.cycle[(round_number - len(self.first) - 1) % len(self.cycle)]

    def to_json(self) -> list[int] | dict[str, list[int]]:
        """``[6, 5, 4, 3, 2]`` for a plain cycle, else ``{"first": [...], "cycle": [...]}``."""
        if not self.first:
            return list(self.cycle)
        return {"first": list(self.first), "cycle": list(self.cycle)}

    @classmethod
    def from_json(cls, value: object, path: str = "rules.deal_sequence") -> DealSequence:
        """A deal sequence from its JSON value; :class:`PositionError` names the key and value
        of anything else."""
        if isinstance(value, list):
            return cls((), _counts(path, value, empty=False))
        if not isinstance(value, Mapping):
            raise PositionError(
                f"{path}: {_show(value)} is not a list of card counts or"
                ' {"first": [...], "cycle": [...]}'
            )
        for key in value:
            if key not in _DEAL_KEYS:
                raise PositionError(
                    f'{path}: unknown key {_show(key)} (value {_show(value[key])}); the keys are'
                    ' "first" and "cycle"'
                )
        if "cycle" not in value:
            raise PositionError(f"{path}.cycle: missing")
        first = _counts(f"{path}.first", value.get("first", []), empty=True)
        return cls(first, _counts(f"{path}.cycle", value["cycle"], empty=False))


def _counts(path: str, value: object, empty: bool) -> tuple[int, ...]:
    """A JSON list of card counts as a tuple (``empty``: may it be empty); otherwise
    :class:`PositionError` naming ``path`` and the value."""
    if not isinstance(value, list):
        raise PositionError(f"{path}: {_show(value)} is not a list of card counts")
    if not value and not empty:
        raise PositionError(f"{path}: [] is empty; it needs at least one card count")
    counts = tuple(value)
    _check_counts(path, counts)
    return counts


def _check_counts(path: str, counts: tuple[object, ...]) -> None:
    if not isinstance(counts, tuple):
        raise PositionError(f"{path}: {_show(counts)} is not a tuple of card counts")
    for index, count in enumerate(counts):
        if not _is_count(count):
            raise PositionError(
                f"{path}[{index}]: {_show(count)} is not a card count (1 to {MOST_CARDS})"
            )


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MOST_CARDS


@dataclass(frozen=True)
class RuleSet:
    """One set of rule options. Compare rule sets with ``==``: the ``base`` name is not compared.

    * ``start_protection``: ``"fresh"`` -- only a peg placed from the kennel and not moved since
      is protected on its own start field; ``"always"`` -- every peg on its own start field is.
    * ``home_entry``: ``"not_fresh"`` -- any peg but a fresh one may turn into its home when it
      moves forward across (or from) its start field; ``"from_behind"`` -- only a move that
      begins on another track field and crosses the start field may turn in.
    * ``deal_sequence``: cards dealt per round (:class:`DealSequence`).
    * ``direction``: how the track runs on the physical board (the engine ignores it).
    * ``team_game``: ``"teams"`` -- 4 or 6 players in teams of two partners;
      ``"teams_or_individual"`` -- also 2, 3 or 5 players, each on their own with 5 pegs
      (docs/rulebook.md#small-games).
    """

    start_protection: str = "fresh"
    home_entry: str = "not_fresh"
    deal_sequence: DealSequence = DealSequence()
    direction: str = "counter-clockwise"
    team_game: str = "teams"
    base: str = field(default="swiss", compare=False)

    def __post_init__(self) -> None:
        _choose("start_protection", self.start_protection, START_PROTECTION)
        _choose("home_entry", self.home_entry, HOME_ENTRY)
        _choose("direction", self.direction, DIRECTIONS)
        _choose("team_game", self.team_game, TEAM_GAME)
        if not isinstance(self.deal_sequence, DealSequence):
            raise PositionError(
                f"rules.deal_sequence: {_show(self.deal_sequence)} is not a DealSequence"
            )
        if self.base not in PRESET_NAMES:
            raise PositionError(f'rules.base: "{self.base}" is not "swiss" or "schmidt"')

    @property
    def always_protected(self) -> bool:
        """Whether every peg on its own start field is protected (not only a fresh one)."""
        return self.start_protection == "always"

    @property
    def from_behind(self) -> bool:
        """Whether home entry needs a move that crosses the start field from behind."""
        return self.home_entry == "from_behind"

    @property
    def individual_play(self) -> bool:
        """Whether 2, 3 or 5 players may play, each on their own."""
        return self.team_game == "teams_or_individual"

    @property
    def name(self) -> str:
        """``"swiss"`` or ``"schmidt"`` when the options are exactly a preset, else ``"custom"``."""
        for preset_name, preset in PRESETS.items():
            if self == preset:
                return preset_name
        return "custom"

    def options(self) -> dict[str, Any]:
        """Every option as JSON values."""
        return {
            "start_protection": self.start_protection,
            "home_entry": self.home_entry,
            "deal_sequence": self.deal_sequence.to_json(),
            "direction": self.direction,
            "team_game": self.team_game,
        }

    def to_json(self) -> dict[str, Any]:
        """The full option set with its base: ``{"base": "swiss", "start_protection": ...}``.

        A game record stores this, so that an old record replays under the same options.
        """
        return {"base": self.base, **self.options()}

    def to_json_compact(self) -> str | dict[str, Any]:
        """``"swiss"``/``"schmidt"`` for a preset, else the base and the options that differ."""
        if self.name != "custom":
            return self.name
        base = PRESETS[self.base].options()
        changed = {key: value for key, value in self.options().items() if base[key] != value}
        return {"base": self.base, **changed}

    @classmethod
    def from_json(cls, obj: object, path: str = "rules") -> RuleSet:
        """A rule set from ``"swiss"``, ``"schmidt"`` or ``{"base": ..., option: value, ...}``.

        Raises :class:`PositionError` naming the key for an unknown name, key or value.
        """
        if isinstance(obj, str):
            preset = PRESETS.get(obj)
            if preset is None:
                raise PositionError(f'{path}: "{obj}" is not "swiss" or "schmidt"')
            return preset
        if not isinstance(obj, Mapping):
            raise PositionError(f"{path}: {_show(obj)} is not a rule set name or object")
        base_name = obj.get("base", "swiss")
        if base_name not in PRESETS:
            raise PositionError(f'{path}.base: {_show(base_name)} is not "swiss" or "schmidt"')
        known = {"base", *PRESETS[base_name].options()}
        for key in obj:
            if key not in known:
                raise PositionError(f"{path}: unknown key {_show(key)} (value {_show(obj[key])})")
        changes: dict[str, Any] = {"base": base_name}
        for key, value in obj.items():
            if key == "deal_sequence":
                changes[key] = DealSequence.from_json(value, f"{path}.deal_sequence")
            elif key != "base":
                if not isinstance(value, str):
                    raise PositionError(f"{path}.{key}: {_show(value)} is not a string")
                changes[key] = value
        try:
            return dataclasses.replace(PRESETS[base_name], **changes)
        except PositionError as error:
            raise PositionError(str(error).replace("rules.", f"{path}.", 1)) from None


def _choose(key: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        choices = " or ".join(f'"{a}"' for a in allowed)
        raise PositionError(f"rules.{key}: {_show(value)} is not {choices}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _show(value: object) -> str:
    """A short excerpt of ``value`` as written in JSON (``"x"``, ``true``, ``[6, 5]``)."""
    return excerpt(value)


PRESET_NAMES = ("swiss", "schmidt")

SWISS = RuleSet(base="swiss")
"""Swiss rules (Brändi Dog, ALM DOG): fresh pegs protected, home entry by any non-fresh peg."""

SCHMIDT = RuleSet(
    start_protection="always",
    home_entry="from_behind",
    direction="clockwise",
    team_game="teams_or_individual",
    base="schmidt",
)
"""Schmidt DOG® rules: every peg on its start is protected, home entry from behind only."""

PRESETS: dict[str, RuleSet] = {"swiss": SWISS, "schmidt": SCHMIDT}

ALM_DOG_DEALS = DealSequence((6,), (5, 4, 3, 2))
"""ALM DOG: the 6th round deals 5 again, not 6: 6, 5, 4, 3, 2, 5, 4, 3, 2, 5, …"""
