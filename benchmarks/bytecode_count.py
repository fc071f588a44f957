"""How many Python bytecodes pylua executes to run a program: a count that,
unlike a time, the load of a shared machine does not move.

    python -m benchmarks.bytecode_count PROGRAM [PROGRAM ...]

PROGRAM is a benchmark's name (``oo/deltablue``, see ``python -m benchmarks
--list``) or a ``.lua`` file.  The program runs once under Python's opcode
tracing (``f_trace_opcodes``), about fifty times slower than untraced, and
the report counts the bytecodes of translated Lua code (code objects named
``<lua ...>``) apart from those of the runtime, the library and the compiler
(everything else).  Two versions of pylua compare by running this from each tree
(``PYTHONPATH``): what a change to the generated code saves per operation
shows as a difference of counts, where a difference of times would be noise
at load 5-10.  A count weighs every bytecode alike and a C call as one, so it
complements timings and does not replace them.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from .pylua_profile import _resolve


@dataclass
class Count:
    generated: int = 0          # bytecodes of translated Lua functions
    runtime: int = 0            # bytecodes of pylua's runtime and library

    @property
    def total(self) -> int:
        return self.generated + self.runtime


def count(path: Path) -> tuple[Count, str]:
    """Run the Lua file ``path`` with the ``pylua`` command's settings once,
    counting the bytecodes executed; the counts and what it printed."""
    import pylua.cli
    from pylua.runtime.luathread import on_lua_thread
    from .impls import _Capture
    counted = Count()

    def opcode(frame, event, arg):
        if event == 'opcode':
            if frame.f_code.co_filename.startswith('<lua'):
                counted.generated += 1
            else:
                counted.runtime += 1
        return opcode

    def enter(frame, event, arg):
        frame.f_trace_opcodes = True
        return opcode

    def traced():
        sys.settrace(enter)
        try:
            pylua.cli.run_file(str(path), [], out.stream, err.stream)
        finally:
            sys.settrace(None)

    out, err = _Capture(), _Capture()
    # Lua runs on threads of its own; run_file called on one stays there.
    on_lua_thread(traced)
    return counted, out.text() + err.text()


def main(argv=None) -> int:
    names = sys.argv[1:] if argv is None else argv
    if not names:
        print(__doc__.strip().split('\n\n')[1].strip())
        return 2
    for name in names:
        counted, output = count(_resolve(name))
        print('%s: %d bytecodes in generated code, %d in the runtime (%d in all); output %s'
              % (name, counted.generated, counted.runtime, counted.total, output.strip()[:60]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
