"""HTTP routers, one module per concern; `app.main.create_app` includes each of them."""
