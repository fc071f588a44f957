"""``python -m benchmarks``: run the pylua benchmark suite."""
import sys

from benchmarks.runner import main

sys.exit(main())
