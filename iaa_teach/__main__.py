"""``python -m iaa_teach``: the ``iaa-teach`` command line (:func:`iaa_teach.cli.main`), for where the
console script is not on the PATH."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
