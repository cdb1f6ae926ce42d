"""Camera → board reading: which marble sits in which hole.

The camera plumbing and the public entry points sit at the top: ``sources`` (frame sources),
``locate`` (markers → homography), ``stabilize`` (only settled readings count), ``markers``
(printable marker sheet), ``debug`` (the reading drawn on the frame) and ``cli`` (the
commands). ``reader`` classifies every hole of one frame (`vision.reader.BoardReader`);
``render`` makes photo-like synthetic frames of a board (tests, benchmark, simulator).
Knows board profiles and images, nothing of the rules. Importing this package imports no
OpenCV.
"""
