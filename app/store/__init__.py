"""The store: every SQL statement of the server, the schema and its migrations.

`Store` (store.py) composes the parts the room service uses (games, rooms, presence); the
records, replays and background jobs have their parts here too. Rows come out as the frozen
values of rows.py. Only config/ lies below.
"""
