"""`python -m app` is the `ishtar` command."""

import sys

from app.ops.cli import main

sys.exit(main())
