"""The rules engines: one package per game, each on the standard library alone.

A game's package is its whole rules (set-up from a seed, legal actions, scoring, what each
seat may see) behind the platform contract (docs/contract.md, typed in app/play/rules.py), and
its facts: id, title, player counts and, where a release changed them, the upgrade of old
games' options. Its descriptor (games/<game>.py, listed in app/games.py) registers it.
`engine.ishtar`: Ishtar: Gardens of Babylon; `engine.babylon`: Babylon Gardens.
"""
