"""Running the Workshop's app on uvicorn, and opening the browser once
the server listens."""
from __future__ import annotations

import os
import sys
import threading
import time
import webbrowser

import uvicorn

from ..host.command import SETUP_ERROR
from .app import build_app
from .command import HOST


def serve(args, environ) -> int:
    if not os.path.isdir(args.dir):
        sys.stderr.write('runvil workshop: error: not a directory: %s\n' % args.dir)
        return SETUP_ERROR
    app = build_app(args.dir, args, environ)
    server = uvicorn.Server(uvicorn.Config(app, host=HOST, port=args.port, log_level='warning',
                                              timeout_graceful_shutdown=2))
    threading.Thread(target=_announce, args=(server, not args.no_browser), daemon=True).start()
    try:
        server.run()
    except KeyboardInterrupt:   # uvicorn raises the Ctrl-C again once it has shut down
        pass
    finally:
        for run in app.state.runs.live.values():   # no run outlives the server
            run.cancel()
    return 0


def _announce(server, open_browser: bool) -> None:
    """Print the address (and open it) once the server listens."""
    while not server.started:
        if server.should_exit:
            return
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    url = 'http://%s:%d/' % (HOST, port)
    print('Workshop on %s (Ctrl-C stops it)' % url, flush=True)
    if open_browser:
        webbrowser.open(url)
