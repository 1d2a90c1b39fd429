"""HTTP routers, one module per concern; `app.ops.main.create_app` includes each of them."""
