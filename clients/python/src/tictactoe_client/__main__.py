"""``python -m tictactoe_client``: the ``tictactoe`` command."""

import sys

from ._cli import main

sys.exit(main())
