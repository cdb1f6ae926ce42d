"""The words the page's script shows, in the reader's language (Flask-Babel catalogues)."""

from __future__ import annotations

from flask_babel import gettext, pgettext  # type: ignore[import-untyped]

COLORS = ("red", "yellow", "green", "blue", "white", "black")
"""The marble colours the setup offers."""

CARDS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "JOKER")
"""The card pad's buttons, in the order of INTERFACES.md section 2."""


def color_names() -> dict[str, str]:
    """Each colour's name."""
    return {"red": gettext("red"), "yellow": gettext("yellow"), "green": gettext("green"),
            "blue": gettext("blue"), "white": gettext("white"), "black": gettext("black")}


def color_initials() -> dict[str, str]:
    """The letters a marble carries so that colour-blind players can read it."""
    return {"red": pgettext("initial of red", "R"), "yellow": pgettext("initial of yellow", "Y"),
            "green": pgettext("initial of green", "G"), "blue": pgettext("initial of blue", "B"),
            "white": pgettext("initial of white", "W"),
            "black": pgettext("initial of black", "K"), "?": "?"}


def rule_names() -> dict[str, str]:
    """The rulebook's sections (the anchors a verdict's `rule` names) as titles."""
    return {"cards": gettext("The cards"), "home": gettext("The home"),
            "home-entry": gettext("Entering the home"), "jack": gettext("The Jack"),
            "knocking-out": gettext("Knocking out"), "moving": gettext("Moving"),
            "partner": gettext("Playing the partner's marbles"),
            "passing": gettext("Passing marbles"), "protection": gettext("Protected marbles"),
            "referee": gettext("The referee"), "seven": gettext("The Seven"),
            "start": gettext("Starting a marble"), "turns": gettext("Turns"),
            "winning": gettext("Winning"), "zugzwang": gettext("Having to play")}


def reading_errors() -> dict[str, str]:
    """Why a reading is no position, per code of the table's `reading_error_code`."""
    return {
        "unreadable": gettext("%(hole)s cannot be read: something is over it."),
        "unknown_colour": gettext("%(hole)s holds a %(color)s marble, a colour nobody plays."),
        "seat_not_playing": gettext("%(hole)s holds a %(color)s marble where nobody plays."),
        "wrong_owner": gettext("%(hole)s holds a %(color)s marble in %(owner)s's kennel or "
                               "home."),
        "too_many": gettext("%(seen)s %(color)s marbles on the board, %(expected)s expected."),
        "too_few": gettext("%(seen)s %(color)s marbles seen, %(expected)s expected: one between "
                           "holes, in a hand or off the board?"),
    }


def camera_warnings() -> dict[str, str]:
    """The camera's warnings, per code of the table's `camera.warning_codes`."""
    return {
        "camera_lost": gettext("The camera is lost: %(why)s"),
        "board_not_found": gettext("The board is not found in the picture: %(why)s"),
        "kennel_overexposed": gettext("The %(color)s kennel is overexposed: %(color)s marbles "
                                      "cannot be told from the board and may be read as "
                                      "empty."),
        "board_overexposed": gettext("%(share)s of the board is overexposed: a hand or card "
                                     "there may go unseen."),
        "reference_blurred": gettext("The picture is blurred (edges spread over %(blur)s): "
                                     "marbles may be read as empty and the board may be lost. "
                                     "Focus the camera."),
    }


def page_texts() -> dict[str, object]:
    """Every sentence the script puts on the page, keyed by what it is for."""
    return {
        "colors": color_names(),
        "rules": rule_names(),
        "reading_errors": reading_errors(),
        "camera_warnings": camera_warnings(),
        "initials": color_initials(),
        "connected": gettext("live"),
        "disconnected": gettext("Connection lost. Reconnecting …"),
        "phase_setup": gettext("No game yet: the referee sets one up."),
        "phase_over": gettext("Game over."),
        "winners": gettext("Winners: %(names)s"),
        "to_move": gettext("%(name)s to move"),
        "seat": gettext("seat %(seat)s"),
        "round": gettext("Round %(round)s, %(cards)s cards, dealer %(dealer)s"),
        "announced": gettext("%(name)s plays %(card)s"),
        "no_card": gettext("Waiting for a card."),
        "in_progress": gettext("Move in progress …"),
        "disturbed": gettext("A marble was moved while no move is expected: "
                             "put it back on the green hole."),
        "legal": gettext("Legal"),
        "illegal": gettext("Not legal"),
        "set_this": gettext("Set the board to this"),
        "put_back": gettext("Put the marbles back as shown in green, or make a legal move."),
        "rule": gettext("Rule: %(rule)s"),
        "difference": gettext("%(color)s: seen on %(seen)s, expected on %(wanted)s"),
        "folded": gettext("out this round"),
        "cards_left": gettext("%(count)s cards"),
        "your_turn": gettext("Your turn"),
        "your_seat": gettext("Your seat: %(name)s"),
        "not_your_turn": gettext("Wait for your turn."),
        "done_sent": gettext("The table judges the board now."),
        "manual_pick": gettext("Tap a marble, then the hole it moved to."),
        "manual_next": gettext("Now tap where %(hole)s went."),
        "manual_parts": gettext("Moved so far: %(parts)s"),
        "manual_none": gettext("Nothing moved yet."),
        "no_results": gettext("This card has no legal result here."),
        "results_count": gettext("%(count)s legal results"),
        "history_empty": gettext("No moves yet."),
        "history_at": gettext("After move %(n)s of %(total)s"),
        "history_start": gettext("Start of the game"),
        "confirm_undo": gettext("Take back every move after move %(n)s?"),
        "confirm_fold": gettext("Cannot play: your cards are out for this round. Sure?"),
        "qr_hint": gettext("Scan to join this seat"),
        "revoke": gettext("Revoke"),
        "setup_started": gettext("New game started."),
        "reference_taken": gettext("Reference taken."),
        "confirm_relearn": gettext("Does the board show exactly the position the table holds, "
                                   "with no hand or thing over it?"),
        "light_learnt": gettext("The camera learnt the new light."),
        "camera_reading": gettext("The camera reads the board."),
        "camera_lost": gettext("The camera lost the board."),
        "camera_manual": gettext("No camera: moves are entered by hand."),
        "camera_simulated": gettext("Simulated camera."),
        "no_reference": gettext("No reference frame yet: put every marble in its kennel and "
                                "take the reference in the setup."),
        "hint_lost": gettext("Make sure all four corner markers are visible and the board is "
                             "lit evenly; move the camera so the whole board is in the frame."),
        "hint_warnings": gettext("Fix what the warnings say, then take the reference again."),
        "hint_ok": gettext("Nothing to change."),
        "hint_exposure": gettext("Lower the camera's exposure or the light over the board, then "
                                 "take the reference again."),
        "settings_saved": gettext("Settings saved."),
        "seconds": gettext("%(s)s s"),
        "error": gettext("Refused: %(message)s"),
        "no_warnings": gettext("No warnings."),
        "notation_words": {"no effect": gettext("no effect"), "back": gettext("back"),
                           "as": gettext("as")},
        "players_needed": gettext("Choose at least two players."),
        "player": gettext("Player %(n)s"),
    }
