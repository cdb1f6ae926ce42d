"""The simulated table: bots that play (and sometimes cheat) and a virtual board.

``bots`` chooses cards and moves (a random player, a heuristic one), ``cheats`` turns a
honest choice into a realistic illegal one, ``match`` plays whole games between bots on the
rules engine alone (for measuring bots). ``virtual`` renders the board into camera frames
(a `vision.sources.FrameSource`), ``client`` lets bots play through the table's public API
(in process or over HTTP) and ``demo`` runs a bot game at the table. Importing this package
imports neither OpenCV nor Flask.
"""
