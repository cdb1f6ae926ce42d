"""Hardware description of Dog boards: the shipped board profiles and their loader.

`load_profile("brandi-4")` or `load_profile("/path/to/my-board.json")` returns a `BoardProfile`.
The profiles follow the `dog-board-profile/1` format (millimetres, origin at the board centre,
x right, y up, seen from above).

The shipped reference profiles (`hw/boards/brandi-4.json`, `brandi-6.json`) are the
specification's byte for byte; `hw/boards/SHA256SUMS` records their checksums, and
`tests/hw/test_profiles.py` holds the files to them (`cd hw/boards && sha256sum -c SHA256SUMS`).
"""

from hw.profiles import BoardProfile, Hole, Marker, ProfileError, load_profile, profile_names

__all__ = ["BoardProfile", "Hole", "Marker", "ProfileError", "load_profile", "profile_names"]
