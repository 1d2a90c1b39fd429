"""The store: every SQL statement of the server, on one driver (asyncpg), the schema and its
migrations.

`Store` (store.py) composes the parts: the room service's (games, rooms, presence) mixed in,
and one part per other concept by name (``store.records``, ``store.replays``,
``store.time_controls``, ``store.deadlines``, ``store.webhooks``, ``store.bot_rooms``,
``store.room_limits``, ``store.chat``, ``store.secrets``), all over the pools of pool.py.
The notice channel and its listening connection are channel.py; /readyz's probe is
readiness.py. SQLAlchemy is left to Alembic (migrate.py, models.py) and, until they have
parts here, to the last two writers through `Store.engine`. Rows come out as the frozen
values of rows.py. Only config/ lies below.
"""
