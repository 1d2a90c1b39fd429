"""Work no request waits for: bots that move, deadlines that pass, turn webhooks (with their
SSRF guard), and the loops that drive them."""
