"""``python -m execstate``: the same as the ``execstate`` command."""

import sys

from execstate.cli import main

sys.exit(main())
