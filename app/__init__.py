"""Ishtar Online: the web service (HTTP, websocket, persistence). It knows no game rules."""
