"""Benchmarks of the service and the engine: run them with `python -m bench.<name>`."""
