"""Browser tests: real Chromium (Debian's package) driving the pages of a live server."""
