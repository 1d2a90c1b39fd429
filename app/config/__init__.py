"""The bottom layer: the settings of a process, its limits, and the helpers every layer uses.

Nothing here imports another package of `app`.
"""
