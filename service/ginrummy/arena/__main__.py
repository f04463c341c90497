"""``python -m ginrummy.arena``: the ``ginrummy-arena`` command."""

import sys

from .cli import main

sys.exit(main())
