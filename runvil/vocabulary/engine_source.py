"""Where in runvil's own source an internal fault happened: the Internal
failures of the parser and the Engine point at an Engine source file."""
from __future__ import annotations

import os
import sys

_PACKAGE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_RUNVIL_DIR = os.path.join(_PACKAGE_ROOT, 'runvil') + os.sep


def engine_position(tb) -> tuple[str, int]:
    """(file relative to the package root, line) of the innermost runvil frame
    of traceback ``tb``, or of the caller's caller when there is none."""
    if tb is None:
        frame = sys._getframe(2)
        return _relative(frame.f_code.co_filename), frame.f_lineno
    # The first frame is the runvil frame that caught the fault; deeper ones
    # may belong to libraries (yaml, pylua), which are not Engine source.
    position = tb.tb_frame.f_code.co_filename, tb.tb_lineno
    while tb is not None:
        if os.path.abspath(tb.tb_frame.f_code.co_filename).startswith(_RUNVIL_DIR):
            position = tb.tb_frame.f_code.co_filename, tb.tb_lineno
        tb = tb.tb_next
    return _relative(position[0]), position[1]


def _relative(filename: str) -> str:
    path = os.path.abspath(filename)
    if path.startswith(_RUNVIL_DIR):
        return os.path.relpath(path, _PACKAGE_ROOT).replace(os.sep, '/')
    return filename
