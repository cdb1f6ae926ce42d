"""Hardware description of Dog boards: the shipped board profiles and their loader.

`load_profile("brandi-4")` or `load_profile("/path/to/my-board.json")` returns a `BoardProfile`.
The profiles follow the `dog-board-profile/1` format (millimetres, origin at the board centre,
x right, y up, seen from above).
"""

from hw.profiles import BoardProfile, Hole, Marker, ProfileError, load_profile, profile_names

__all__ = ["BoardProfile", "Hole", "Marker", "ProfileError", "load_profile", "profile_names"]
