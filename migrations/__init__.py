"""Alembic migrations of the Ishtar Online schema (a package so that it installs with the app).

Run them with `ishtar db upgrade` / `ishtar db downgrade REV`; write one with
`ishtar db revision -m "what changes"`. Revisions are numbered 0001, 0002, ...
"""
