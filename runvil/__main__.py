import sys

from .cli import main

# Guarded: a worker process of ``runvil batch`` imports this module again.
if __name__ == '__main__':
    sys.exit(main())
