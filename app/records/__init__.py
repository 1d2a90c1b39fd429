"""Game records: export (signed), import, provenance, replays and `ishtar verify`."""
