"""``warn`` and lua.c's warning system (standalone profile): warnings start
off; ``@on``/``@off`` switch them; each is written to stderr as
``Lua warning: MESSAGE``."""
from __future__ import annotations

from ..runtime.values import Builtin
from .args import ABSENT, check_str


def install(vm, stderr):
    state = {'on': False}

    def emit(message, control=False):
        """One whole warning; ``control``: a one-piece message, which may be '@on'/'@off'."""
        if control and message.startswith('@'):
            if message in ('@on', '@off'):
                state['on'] = message == '@on'
            return
        if state['on']:
            # As lua_writestringerror: to stderr, leaving stdout's buffer be.
            stderr.write(('Lua warning: %s\n' % message).encode('latin-1', 'replace'))
            stderr.flush()

    def warn(*parts):
        pieces = [check_str(p, i, 'warn') for i, p in enumerate(parts or (ABSENT,), 1)]
        emit(''.join(pieces), control=len(pieces) == 1)
        return ()

    vm.warn = emit
    vm.globals.set_str('warn', Builtin(warn, 'warn'))
