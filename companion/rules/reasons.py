"""The referee's reasons: stable codes with arguments, rendered in German and English.

A :class:`Reason` is a snake_case ``code`` and its ``args`` (plain JSON values: colours, field
names such as ``"T12"``/``"H2"``/``"K"``/``"T16*"``, numbers, lists). :data:`CATALOGUE` holds for
every code the anchor of its rule in ``docs/rulebook.md`` and one sentence template per language;
:func:`reason_text` renders a code in ``"en"`` or ``"de"``.

>>> reason_text("wrong_distance", {"color": "red", "from": "T20", "to": "T26", "steps": 6,
...                                 "card": "5", "wanted": [5]}, "de")
'Rot zog T20→T26: das sind 6 Felder vorwärts, aber die 5 zieht genau 5'

Argument conventions (a template may use what the context derives from them):

* ``color``, ``*_color``: a colour name, translated in German (``red`` → ``Rot``); unknown
  colours stay as they are.
* ``color`` with ``field``, ``other_color`` with ``other_field``: a peg; ``{peg}`` and
  ``{other_peg}`` name it (``"blue at T22"``, a fresh peg ``"red's fresh peg on T16"``).
* ``by_color``, ``by_from``, ``by_to``: the mover's peg that made the mistake; ``{by}`` reads
  ``"red T10→T12"``.
* ``card``: the card's short name (``"7"``, ``"JOKER"``); ``{card}`` is ``"the 7"`` /
  ``"die 7"``, ``{card_dative}`` the German dative (``"der 7"``, ``"dem Joker"``).
* ``owner_color`` and ``mover_color``: ``{whose}`` reads ``"red's own pegs"`` or
  ``"green's pegs (all of red's own pegs are home)"``.
* ``moves``: a list of ``{"color", "from", "to"}``; ``{moves}`` reads ``"red T3→T8, red …"``.
* ``wanted``: a list of distances; ``{wanted}`` reads ``"1 or 11"``, ``"1 to 13"``.
* ``why``: a list of sub-reasons ``{"code", "args"}``; ``{why}`` joins their sentences.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

__all__ = ["CATALOGUE", "LANGUAGES", "Entry", "Reason", "reason_text", "rule_of"]

LANGUAGES = ("de", "en")


class Reason(NamedTuple):
    """A reason code and its arguments."""

    code: str
    args: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """``{"code": …, "args": {…}}``."""
        return {"code": self.code, "args": self.args}


class Entry(NamedTuple):
    """One catalogue entry: the rule's anchor in ``docs/rulebook.md`` and the two sentences."""

    rule: str | None
    en: str
    de: str


CATALOGUE: dict[str, Entry] = {
    # -- the card cannot be played ------------------------------------------------------------
    "game_over": Entry(
        "winning",
        "{mover_color} has no pegs left to move: the game is over",
        "{mover_color} hat keine Kugel mehr zu ziehen: das Spiel ist aus",
    ),
    "not_playable": Entry(
        "zugzwang",
        "{card} cannot be played by {mover_color}: {why}",
        "{card} kann von {mover_color} nicht gespielt werden: {why}",
    ),
    "seven_not_playable": Entry(
        "seven",
        "the 7 cannot be played: {whose} cannot move 7 points in total, and all 7 must be"
        " moved: {why}",
        "die 7 kann nicht gespielt werden: die {whose} können nicht zusammen 7 Felder ziehen, und"
        " alle 7 müssen gezogen werden: {why}",
    ),
    "jack_not_playable": Entry(
        "jack",
        "the J cannot be played: none of {color}'s pegs on the track can be swapped (pegs in"
        " kennel or home and protected pegs never swap), while other players' pegs could be;"
        " the Jack has no effect only when no other player's swappable peg stands on the track",
        "der Bube kann nicht gespielt werden: keine Kugel von {color} auf der Laufbahn kann"
        " getauscht werden (Kugeln im Zwinger oder im Ziel und geschützte Kugeln tauschen nie),"
        " während Kugeln anderer Spieler getauscht werden könnten; ohne Wirkung bleibt der Bube"
        " nur, wenn keine tauschbare Kugel eines anderen Spielers auf der Laufbahn steht",
    ),
    "no_peg_can_move": Entry(
        "zugzwang",
        "no peg can move",
        "keine Kugel kann ziehen",
    ),
    "start_blocked": Entry(
        "protection",
        "the start field {start} is blocked by {peg}",
        "das Startfeld {start} ist durch {peg} besetzt",
    ),
    "all_in_kennel": Entry(
        "start",
        "all of {color}'s pegs are in the kennel, and only the A, the K and the Joker start a"
        " peg",
        "alle Kugeln von {color} sind im Zwinger, und nur Ass, König und Joker bringen eine"
        " Kugel ins Spiel",
    ),
    "home_no_room": Entry(
        "home",
        "{at} has {room} free field(s) ahead at most in the home",
        "{at} hat im Ziel höchstens {room} freie(s) Feld(er) vor sich",
    ),
    "blocked_by_protected": Entry(
        "protection",
        "{at} is blocked by {peg}, which cannot be passed",
        "{at} ist durch {peg} blockiert, die nicht überholt werden darf",
    ),
    # -- nothing moved, or no explanation ------------------------------------------------------
    "jack_must_swap": Entry(
        "jack",
        "nothing moved, but a swap is possible ({example}): the Jack must swap when it can,"
        " even to the player's disadvantage",
        "nichts wurde gezogen, aber ein Tausch ist möglich ({example}): der Bube muss tauschen,"
        " wenn er kann, auch zum eigenen Nachteil",
    ),
    "nothing_moved": Entry(
        "moving",
        "nothing moved, but {card} has legal moves ({example}): a card played must be executed"
        " completely, its points never lapse",
        "nichts wurde gezogen, aber {card} hat erlaubte Züge ({example}): eine gespielte Karte"
        " muss vollständig ausgeführt werden, ihre Punkte verfallen nie",
    ),
    "no_legal_move": Entry(
        "referee",
        "no legal move of {card} leads to the observed position (legal, for example:"
        " {example})",
        "kein erlaubter Zug mit {card_dative} führt zur beobachteten Stellung (erlaubt wäre zum"
        " Beispiel: {example})",
    ),
    # -- one peg moved wrongly --------------------------------------------------------------
    "wrong_distance": Entry(
        "cards",
        "{color} moved {from}→{to}: that is {steps} fields forward, but {card} moves exactly"
        " {wanted}",
        "{color} zog {from}→{to}: das sind {steps} Felder vorwärts, aber {card} zieht genau"
        " {wanted}",
    ),
    "wrong_distance_backward": Entry(
        "cards",
        "{color} moved {from}→{to}: that is {steps} fields backward, but {card} moves backward"
        " exactly 4",
        "{color} zog {from}→{to}: das sind {steps} Felder rückwärts, aber {card} zieht rückwärts"
        " genau 4",
    ),
    "no_forward_way": Entry(
        "moving",
        "{color} moved {from}→{to}: no forward way leads there with {card}",
        "{color} zog {from}→{to}: mit {card_dative} führt kein Weg vorwärts dorthin",
    ),
    "four_backward_into_home": Entry(
        "home",
        "{color} moved {from}→{to}: a 4 backward never enters the home",
        "{color} zog {from}→{to}: eine 4 rückwärts führt nie ins Ziel",
    ),
    "several_pegs_moved": Entry(
        "seven",
        "{count} pegs moved ({moves}), but only the 7 may be split over several pegs",
        "{count} Kugeln wurden gezogen ({moves}), aber nur die 7 darf auf mehrere Kugeln"
        " verteilt werden",
    ),
    "moved_without_cause": Entry(
        "moving",
        "{color}'s peg went from {from} to {to}, but no part of the move reached it",
        "die Kugel von {color} kam von {from} nach {to}, aber kein Teil des Zuges hat sie"
        " erreicht",
    ),
    "start_wrong_card": Entry(
        "start",
        "{color} started a peg with {card}, but only the A, the K and the Joker move a peg"
        " from the kennel onto its start field",
        "{color} hat mit {card_dative} eine Kugel ins Spiel gebracht, aber nur Ass, König und"
        " Joker bringen eine Kugel aus dem Zwinger auf ihr Startfeld",
    ),
    "start_wrong_field": Entry(
        "start",
        "{color}'s peg left the kennel for {to}, but a started peg goes onto its own start"
        " field {start}",
        "eine Kugel von {color} kam aus dem Zwinger auf {to}, aber eine neue Kugel kommt auf"
        " ihr eigenes Startfeld {start}",
    ),
    "start_onto_protected": Entry(
        "protection",
        "{peg} is protected: nobody may start onto it",
        "{peg} ist geschützt: niemand darf auf dieses Feld ins Spiel kommen",
    ),
    # -- knocking out --------------------------------------------------------------------------
    "landed_on_left_standing": Entry(
        "knocking-out",
        "{peg} was landed on and must go back to its kennel: a peg landing on an occupied"
        " field knocks out its occupant ({by})",
        "{peg} wurde getroffen und muss zurück in ihren Zwinger: wer auf einem besetzten Feld"
        " landet, schlägt die Kugel dort ({by})",
    ),
    "passed_left_standing": Entry(
        "seven",
        "{peg} was passed by the 7 and must go back to its kennel: the 7 knocks out every peg"
        " it passes ({by})",
        "{peg} wurde von der 7 überholt und muss zurück in ihren Zwinger: die 7 schlägt jede"
        " Kugel, die sie überholt ({by})",
    ),
    "passed_knocked_out": Entry(
        "passing",
        "{peg} was only passed and must stay: only the 7 knocks out the pegs it passes ({by})",
        "{peg} wurde nur überholt und muss stehen bleiben: nur die 7 schlägt die Kugeln, die"
        " sie überholt ({by})",
    ),
    "kennel_without_cause": Entry(
        "knocking-out",
        "{color}'s peg from {field} was put into its kennel, but nothing knocked it out",
        "die Kugel von {color} auf {field} kam in den Zwinger, aber nichts hat sie geschlagen",
    ),
    "knocked_out_earlier": Entry(
        "seven",
        "{color}'s peg on {field} was knocked out by an earlier part of the 7 and cannot move"
        " any more",
        "die Kugel von {color} auf {field} wurde von einem früheren Teil der 7 geschlagen und"
        " kann nicht mehr ziehen",
    ),
    # -- protection and home -----------------------------------------------------------------
    "protected_passed": Entry(
        "protection",
        "{peg} blocks: it cannot be passed, it is protected on its own start field ({by})",
        "{peg} blockiert: sie steht geschützt auf ihrem eigenen Startfeld und darf nicht"
        " überholt werden ({by})",
    ),
    "protected_landed_on": Entry(
        "protection",
        "{peg} is protected on its own start field: it cannot be knocked out ({by})",
        "{peg} steht geschützt auf ihrem eigenen Startfeld: sie kann nicht geschlagen werden"
        " ({by})",
    ),
    "home_entry_from_behind": Entry(
        "home-entry",
        "{color}'s peg starts on its own start field {from}: it must come from behind and cross"
        " the start field to enter its home (home_entry from_behind)",
        "die Kugel von {color} beginnt auf ihrem eigenen Startfeld {from}: um ins Ziel zu"
        " kommen, muss sie von hinten kommen und das Startfeld überqueren (home_entry"
        " from_behind)",
    ),
    "home_entry_fresh": Entry(
        "home-entry",
        "{peg} may not enter its home before it has moved: the start must be touched twice"
        " (home_entry not_fresh)",
        "{peg} darf nicht ins Ziel, bevor sie gezogen hat: das Startfeld muss zweimal berührt"
        " werden (home_entry not_fresh)",
    ),
    "home_passed": Entry(
        "home",
        "{color}'s peg on {field} cannot be passed inside the home ({by})",
        "die Kugel von {color} auf {field} darf im Ziel nicht überholt werden ({by})",
    ),
    "home_field_taken": Entry(
        "home",
        "{color}'s home field {field} is taken: nobody is knocked out in the home ({by})",
        "das Zielfeld {field} von {color} ist besetzt: im Ziel wird niemand geschlagen ({by})",
    ),
    # -- the 7 ---------------------------------------------------------------------------------
    "seven_wrong_total": Entry(
        "seven",
        "the parts of the 7 add up to {total} fields ({moves}), but all 7 points must be"
        " moved, exactly",
        "die Teile der 7 ergeben zusammen {total} Felder ({moves}), aber alle 7 Punkte müssen"
        " genau gezogen werden",
    ),
    "partner_seven_too_early": Entry(
        "partner",
        "{color}'s pegs moved, but {mover_color}'s own pegs are not all home: the 7 moves the"
        " partner's pegs only after the last own peg is home",
        "Kugeln von {color} wurden gezogen, aber noch nicht alle eigenen Kugeln von"
        " {mover_color} sind im Ziel: die 7 zieht die Kugeln des Partners erst, wenn die letzte"
        " eigene Kugel im Ziel ist",
    ),
    "fresh_mark_lost": Entry(
        "protection",
        "{peg} has not moved since it was started: it is still fresh, {field}, not {observed}",
        "{peg} hat seit dem Start nicht gezogen: sie ist noch frisch, {field}, nicht {observed}",
    ),
    "fresh_mark_added": Entry(
        "protection",
        "{peg} is not fresh: only a peg just started from the kennel is, {field}, not"
        " {observed}",
        "{peg} ist nicht frisch: frisch ist nur eine eben aus dem Zwinger gekommene Kugel,"
        " {field}, nicht {observed}",
    ),
    # -- whose pegs ----------------------------------------------------------------------------
    "partner_too_early": Entry(
        "partner",
        "{color}'s peg moved ({moves}), but {mover_color} plays with the partner's pegs only"
        " once all own pegs are home",
        "eine Kugel von {color} wurde gezogen ({moves}), aber {mover_color} spielt mit den"
        " Kugeln des Partners erst, wenn alle eigenen Kugeln im Ziel sind",
    ),
    "other_player_moved": Entry(
        "turns",
        "{color}'s peg moved ({moves}), but {card} moves only {whose}",
        "eine Kugel von {color} wurde gezogen ({moves}), aber {card} zieht nur die {whose}",
    ),
    # -- the Jack ------------------------------------------------------------------------------
    "not_a_swap": Entry(
        "jack",
        "{card} played as the J swaps one of {whose} with another player's peg; the observed"
        " change is not a swap",
        "{card} als Bube tauscht eine der {whose} mit einer Kugel eines anderen Spielers; die"
        " beobachtete Änderung ist kein Tausch",
    ),
    "jack_wrong_partner": Entry(
        "jack",
        "wrong Jack partner: {color} at {field} and {other_color} at {other_field} were"
        " swapped, but the Jack swaps one of {whose} with another player's peg",
        "falscher Tausch: {color} auf {field} und {other_color} auf {other_field} wurden"
        " getauscht, aber der Bube tauscht eine der {whose} mit einer Kugel eines anderen"
        " Spielers",
    ),
    "swap_protected": Entry(
        "jack",
        "{peg} is protected on its own start field: it cannot be swapped",
        "{peg} steht geschützt auf ihrem eigenen Startfeld: sie kann nicht getauscht werden",
    ),
    "swap_kennel_or_home": Entry(
        "jack",
        "{color}'s peg in {field} cannot be swapped: pegs in kennel or home never swap",
        "die Kugel von {color} auf {field} kann nicht getauscht werden: Kugeln im Zwinger oder"
        " im Ziel tauschen nie",
    ),
}
"""Every reason code: its rule's anchor in ``docs/rulebook.md`` and its English and German
sentence templates."""

_COLORS_DE = {
    "red": "Rot",
    "yellow": "Gelb",
    "green": "Grün",
    "blue": "Blau",
    "white": "Weiß",
    "black": "Schwarz",
    "orange": "Orange",
    "purple": "Lila",
}
_CARDS_DE = {
    "A": ("das Ass", "dem Ass"),
    "K": ("der König", "dem König"),
    "Q": ("die Dame", "der Dame"),
    "J": ("der Bube", "dem Buben"),
    "JOKER": ("der Joker", "dem Joker"),
}


def rule_of(code: str) -> str | None:
    """The anchor of ``code``'s rule in ``docs/rulebook.md`` (``"seven"`` → ``#seven``)."""
    return CATALOGUE[code].rule


def reason_text(code: str, args: Mapping[str, Any], language: str = "en") -> str:
    """The sentence for reason ``code`` with ``args`` in ``language`` (``"de"`` or ``"en"``).

    German sentences begin with a capital letter; English ones begin as the reason's first
    word is written (``"red moved …"``), as scripts have always read them. Raises KeyError for
    an unknown code and ValueError for an unknown language.
    """
    if language not in LANGUAGES:
        raise ValueError(f"language {language!r} is not one of {', '.join(LANGUAGES)}")
    text = _render(code, args, language)
    return text[:1].upper() + text[1:] if language == "de" else text


def _render(code: str, args: Mapping[str, Any], language: str) -> str:
    entry = CATALOGUE[code]
    template = entry.de if language == "de" else entry.en
    return template.format_map(_context(args, language))


def _context(args: Mapping[str, Any], language: str) -> dict[str, Any]:
    german = language == "de"
    out: dict[str, Any] = {}
    for key, value in args.items():
        if key == "color" or key.endswith("_color"):
            out[key] = _color(value, language)
        elif key in ("why", "moves", "wanted", "card"):
            continue
        else:
            out[key] = value
    if "card" in args:
        out["card"], out["card_dative"] = _card(str(args["card"]), language)
    for prefix in ("", "other_"):
        if f"{prefix}color" in args and f"{prefix}field" in args:
            out[f"{prefix}peg"] = _peg(args[f"{prefix}color"], args[f"{prefix}field"], language)
    if "by_color" in args:
        out["by"] = f"{_color(args['by_color'], language)} {args['by_from']}→{args['by_to']}"
    if "owner_color" in args and "mover_color" in args:
        out["whose"] = _whose(args["owner_color"], args["mover_color"], language)
    if "moves" in args:
        out["moves"] = ", ".join(
            f"{_color(m['color'], language)} {m['from']}→{m['to']}" for m in args["moves"]
        )
    if "wanted" in args:
        out["wanted"] = _wanted(args["wanted"], german)
    if "why" in args:
        out["why"] = "; ".join(
            _render(sub["code"], sub["args"], language) for sub in args["why"]
        )
    return out


def _color(name: str, language: str) -> str:
    return _COLORS_DE.get(name, name) if language == "de" else name


def _card(name: str, language: str) -> tuple[str, str]:
    if language == "de":
        return _CARDS_DE.get(name, (f"die {name}", f"der {name}"))
    text = "the Joker" if name == "JOKER" else f"the {name}"
    return text, text


def _peg(color: str, field: str, language: str) -> str:
    fresh = field.endswith("*")
    where = field.rstrip("*")
    if language == "de":
        return f"{_color(color, language)} auf {where}" + (" (frisch)" if fresh else "")
    return f"{color}'s fresh peg on {where}" if fresh else f"{color} at {where}"


def _whose(owner: str, mover: str, language: str) -> str:
    if language == "de":
        if owner == mover:
            return f"eigenen Kugeln von {_color(mover, language)}"
        return (
            f"Kugeln von {_color(owner, language)} (alle eigenen Kugeln von"
            f" {_color(mover, language)} sind im Ziel)"
        )
    if owner == mover:
        return f"{mover}'s own pegs"
    return f"{owner}'s pegs (all of {mover}'s own pegs are home)"


def _wanted(distances: list[int], german: bool) -> str:
    if len(distances) > 2 and distances == list(range(distances[0], distances[-1] + 1)):
        return f"{distances[0]} {'bis' if german else 'to'} {distances[-1]}"
    return f" {'oder' if german else 'or'} ".join(str(n) for n in distances)
