"""A test Pack whose tool kills the worker process running it:
``crash/exit {mode}`` with mode ``crash once MARKER`` exits the first time
(leaving the file MARKER) and answers ``survived`` after; ``crash always``
exits every time."""
import os

from runvil.tools import Pack, PackTool


def exit_worker(arguments, context):
    mode = arguments['mode'].split()
    if mode[1] == 'once' and os.path.exists(mode[2]):
        return 'survived'
    if mode[1] == 'once':
        open(mode[2], 'w').close()
    os._exit(3)


PACKS = [Pack('crash', (PackTool('exit', 'Exit the worker process.', exit_worker,
                                 {'type': 'object', 'properties': {'mode': {'type': 'string'}}}),))]
