"""The rules engines: one package per game, each on the standard library alone.

A game's package is its whole rules (set-up from a seed, legal actions, scoring, what each
seat may see) behind the platform contract (docs/contract.md, typed in app/play/rules.py); the
server registers it in app/games.py. `engine.ishtar`: Ishtar: Gardens of Babylon.
"""
