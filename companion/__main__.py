"""`python -m companion` is the same as the `dog-companion` command."""

import sys

from companion.cli import main

sys.exit(main())
