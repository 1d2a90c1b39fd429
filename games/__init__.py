"""The games' descriptors: what the server is told about each game, one module per game.

A descriptor (`app.games.Game`) joins a game's engine (`engine/<game>/`, standard library
only) and its bots (`bots/<game>/`) to what only the server needs: the options form, a
pydantic model the engines may not import, the client module and the home page's words.
`app/games.py` lists these modules by name (`INSTALLED`) and loads each one's
``DESCRIPTOR``, as it loads the toy game of the tests (``ISHTAR_EXTRA_GAMES``).
"""
