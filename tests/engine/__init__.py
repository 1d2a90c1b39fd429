"""Tests of the rules engine: one rule clause per test, playouts, golden games, perft."""
