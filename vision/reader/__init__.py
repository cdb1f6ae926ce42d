"""The reader: per-hole classification of one frame (empty, which colour, or "?").

`BoardReader` is the entry point; the rest are its internals: ``holes`` (where to look
around each hole), ``features`` (what a hole looks like), ``match`` and ``trust`` (the two
small networks of ``network``, weights in ``models/``), ``seats`` (which seats play),
``census`` (the marble count), ``occlusion`` (hands and objects over the board) and
``train`` (the tool that makes the shipped networks).
"""

from vision.reader.board_reader import UNKNOWN, BoardReader, HoleReading, Learned, ReadError

__all__ = ["UNKNOWN", "BoardReader", "HoleReading", "Learned", "ReadError"]
