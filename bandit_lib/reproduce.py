"""``python -m bandit_lib.reproduce``: the command-line entry of :mod:`bandit_lib.infra.reproduce`."""

import sys

from bandit_lib.infra.reproduce import main

if __name__ == "__main__":
    sys.exit(main())
