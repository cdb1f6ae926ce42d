"""The shipped board profiles and their loader."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from hw import ProfileError, load_profile, profile_names
from tests.conftest import REPO, SHARED

BOARDS = REPO / "hw" / "boards"
REFERENCE = SHARED / "spec" / "boards"


def shipped_checksums() -> dict[str, str]:
    """File name → SHA-256 from `hw/boards/SHA256SUMS` (the format `sha256sum -c` reads)."""
    sums = {}
    for line in (BOARDS / "SHA256SUMS").read_text(encoding="ascii").splitlines():
        digest, name = line.split(maxsplit=1)
        sums[name.lstrip("*")] = digest
    return sums


def test_shipped_profiles_match_their_recorded_checksums() -> None:
    sums = shipped_checksums()
    assert set(sums) == {f"{name}.json" for name in ("brandi-4", "brandi-6")}
    for name, digest in sums.items():
        assert hashlib.sha256((BOARDS / name).read_bytes()).hexdigest() == digest, name


@pytest.mark.skipif(not REFERENCE.is_dir(),
                    reason=f"the reference profiles {REFERENCE} are not beside this checkout "
                           "(CI has them); the recorded checksums still hold the profiles")
@pytest.mark.parametrize("name", ["brandi-4.json", "brandi-6.json"])
def test_shipped_profiles_are_the_reference_byte_for_byte(name: str) -> None:
    reference = (REFERENCE / name).read_bytes()
    assert (BOARDS / name).read_bytes() == reference
    assert shipped_checksums()[name] == hashlib.sha256(reference).hexdigest()


def test_profile_names_lists_the_shipped_boards() -> None:
    assert {"brandi-4", "brandi-6"} <= set(profile_names())


@pytest.mark.parametrize(("name", "seats", "leds", "holes"),
                         [("brandi-4", 4, 80, 96), ("brandi-6", 6, 120, 144)])
def test_load_profile_by_name(name: str, seats: int, leds: int, holes: int) -> None:
    profile = load_profile(name)
    assert (profile.seats, profile.led_count, len(profile.holes)) == (seats, leds, holes)
    assert profile.hole("T0").seat == 0
    assert len(profile.holes_of_kind("track")) == 16 * seats
    assert [m.id for m in profile.markers] == [0, 1, 2, 3]


def test_load_profile_by_path(tmp_path: Path) -> None:
    data = json.loads((BOARDS / "brandi-4.json").read_text())
    data["name"] = "my-board"
    path = tmp_path / "my-board.json"
    path.write_text(json.dumps(data))
    assert load_profile(path).name == "my-board"


def test_unknown_board_names_the_shipped_ones() -> None:
    with pytest.raises(ProfileError, match="brandi-4"):
        load_profile("no-such-board")


def test_unknown_hole_is_named() -> None:
    with pytest.raises(ProfileError, match="T99"):
        load_profile("brandi-4").hole("T99")


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(format="x"), "format"),
    (lambda d: d.pop("markers"), "markers"),
    (lambda d: d["holes"][3].update(kind="moat"), r"holes\[3\]\.kind"),
    (lambda d: d["holes"][3].update(led=-1), r"holes\[3\]\.led"),
    (lambda d: d["holes"][4].update(id="T3"), "duplicate id 'T3'"),
    (lambda d: d["holes"].pop(0), "track holes"),
])
def test_malformed_profiles_name_the_offending_key(tmp_path: Path, change, message) -> None:
    data = json.loads((BOARDS / "brandi-4.json").read_text())
    change(data)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ProfileError, match=message):
        load_profile(path)


def test_profile_that_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{")
    with pytest.raises(ProfileError, match="not valid JSON"):
        load_profile(path)


def test_profile_that_is_no_text_file(tmp_path: Path) -> None:
    path = tmp_path / "photo.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff")
    with pytest.raises(ProfileError, match=r"photo\.png.*not a text file"):
        load_profile(path)
