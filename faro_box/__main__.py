"""``python -m faro_box``: the ``faro-box`` command."""

import sys

from faro_box.cli import main

sys.exit(main())
