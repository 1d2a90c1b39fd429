"""Test machinery shared by the fixtures in tests/conftest.py (and by bench/)."""
