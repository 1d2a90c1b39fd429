"""Live connections: the hub that fans each commit out to every viewer of a room, the
client connection with its bounded send queue, and who is connected (presence)."""
