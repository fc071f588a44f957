"""Cutting a finished Python frame's link to its caller.

An error's traceback holds a frame for each level it left, and CPython
3.11 links each such finished frame to its caller's frame (``f_back``) when
the unwind leaves it.  So the innermost frame of a traceback keeps every
outer one alive, and cutting the middle out of a deep traceback
(``api.compacted``) freed only its entries, not the hundred thousand frames
they showed, which every collection of Python's then walked.  ``f_back`` is
read-only to Python code: ``relink`` writes it through the frame's C
layout, checked once against this interpreter (where the layout differs,
it changes nothing and says so).
"""
from __future__ import annotations

import ctypes
import sys

_POINTER = ctypes.sizeof(ctypes.c_void_p)
_F_BACK = 2 * _POINTER              # after PyObject_HEAD
_F_FRAME = 3 * _POINTER             # the frame's data, inside the object once it has finished
_F_FRAME_DATA = 6 * _POINTER        # f_trace, f_lineno and three flags between
_incref = ctypes.pythonapi.Py_IncRef
_incref.argtypes = [ctypes.py_object]
_decref = ctypes.pythonapi.Py_DecRef
_decref.argtypes = [ctypes.py_object]


def _word(obj, offset) -> int:
    return ctypes.c_void_p.from_address(id(obj) + offset).value or 0


def _finished(frame) -> bool:
    """Does ``frame`` own its data (it has returned or been unwound)?  Only
    then is ``f_back`` a stored link rather than found from the stack."""
    return _word(frame, _F_FRAME) == id(frame) + _F_FRAME_DATA


def _layout_holds() -> bool:
    """Is the frame layout the one assumed, on this interpreter?"""
    if sys.implementation.name != 'cpython' or sys.version_info[:2] != (3, 11):
        return False

    def inner():
        raise ValueError

    def outer():
        inner()
    try:
        outer()
    except ValueError as e:
        tb = e.__traceback__.tb_next
    outer_frame, inner_frame = tb.tb_frame, tb.tb_next.tb_frame
    return (_finished(inner_frame) and not _finished(sys._getframe())
            and _word(inner_frame, _F_BACK) == id(outer_frame) and inner_frame.f_back is outer_frame)


AVAILABLE = _layout_holds()


def relink(frame, back) -> bool:
    """Make finished ``frame``'s caller ``back`` (a frame further out),
    dropping its link to the frames between; whether it could."""
    if not AVAILABLE or not _finished(frame):
        return False
    old = frame.f_back
    if old is back:
        return True
    _incref(back)
    ctypes.c_void_p.from_address(id(frame) + _F_BACK).value = id(back)
    if old is not None:
        _decref(old)
    return True
