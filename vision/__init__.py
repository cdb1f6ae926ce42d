"""Camera → board reading: which marble sits in which hole.

``sources`` (frame sources), ``locate`` (markers → homography), ``read`` (hole classes),
``occlusion`` (hands and objects over the board), ``stabilize`` (only settled readings count),
``markers`` (printable marker sheet), ``render`` (synthetic frames). Knows board profiles and
images, nothing of the rules. Importing this package imports no OpenCV.
"""
