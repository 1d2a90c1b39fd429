"""The test suite; it mirrors the code: tests/app, tests/engine, tests/e2e, ..."""
