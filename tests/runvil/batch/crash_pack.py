"""A test Pack whose tool kills the worker process running it:
``crash/exit {mode}`` with mode ``crash once MARKER`` exits the first time
(leaving the file MARKER) and answers ``survived`` after; ``crash always
LOG`` adds a line to the file LOG and exits, every time."""
import os

from runvil.tools import Pack, PackTool


def exit_worker(arguments, context):
    _, how, path = arguments['mode'].split()
    if how == 'once' and os.path.exists(path):
        return 'survived'
    with open(path, 'a') as handle:
        handle.write('attempt\n')
    os._exit(3)


PACKS = [Pack('crash', (PackTool('exit', 'Exit the worker process.', exit_worker,
                                 {'type': 'object', 'properties': {'mode': {'type': 'string'}}}),))]
