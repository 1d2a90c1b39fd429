"""The top: the `ishtar` command, the application factory and the one composition root
(runtime.py), and what runs a server process (embedded PostgreSQL, the connection guard, the
websocket transport, the collector, the warm-up)."""
