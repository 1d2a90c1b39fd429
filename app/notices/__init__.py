"""Notices between processes: the announcer that sends them in batches, the listener that
receives PostgreSQL's LISTEN/NOTIFY, and the peers (which other instances listen)."""
