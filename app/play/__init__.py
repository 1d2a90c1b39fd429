"""Play: the room service and everything a move is judged by.

The service (service.py) is composed of named parts: rooms and identity (rooms.py), every
seat operation (seats.py, with the checks of seat_checks.py), reading started games
(reading.py), submitting moves (submission.py) and "your games" (your_games.py), over the
position cache (positions.py); its listeners are listeners.py. The wire's messages and error
codes are protocol.py; the contract a game's engine follows is rules.py. Play knows no game: the registry (app/games.py) is
handed to it by the composition root (app/ops/runtime.py).
"""
