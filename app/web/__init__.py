"""The web: HTTP routes (routes/), the room websocket (ws.py), security headers and the
versioned static files. Routes and the websocket handler parse and delegate."""
