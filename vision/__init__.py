"""Camera → board reading: which marble sits in which hole.

``sources`` (frame sources), ``locate`` (markers → homography), ``holes`` (where to look around
each hole), ``read`` (hole classes; with ``features``, ``match``, ``trust``, ``seats`` and
``census``), ``occlusion`` (hands and objects over the board), ``stabilize`` (only settled
readings count), ``markers`` (printable marker sheet), ``debug`` (the reading drawn on the
frame), ``render`` (synthetic frames), ``cli`` (the commands). Knows board profiles and
images, nothing of the rules. Importing this package imports no OpenCV.
"""
