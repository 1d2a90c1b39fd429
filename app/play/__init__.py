"""Play: the room service and everything a move is judged by.

The service (service.py) is composed of its parts: rooms and seats (seating.py, seats.py),
reading started games (reading.py) and submitting moves (submission.py), over the position
cache (positions.py). The wire's messages and error codes are protocol.py; the contract a
game's engine follows is rules.py. Play knows no game: the registry (app/games.py) is
handed to it by the composition root (app/ops/runtime.py).
"""
