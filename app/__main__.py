"""`python -m app` is the `ishtar` command."""

import sys

from app.cli import main

sys.exit(main())
