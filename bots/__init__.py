"""The bot layer: the match loop over any game's rules, the simulator and its statistics.

Each game's bots live in a package of their own (`bots.ishtar`), reached through the game's
descriptor (games/<game>.py: its `LEVELS` and `think`) by the server and by `ishtar simulate --game ID`.
"""
