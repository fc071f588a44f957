"""Running the Workshop's app on uvicorn, and opening the browser once
the server listens."""
from __future__ import annotations

import os
import sys
import threading
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
    config = uvicorn.Config(app, host=HOST, port=args.port, log_level='warning',
                            timeout_graceful_shutdown=2)
    server = _AnnouncingServer(config, open_browser=not args.no_browser)
    try:
        server.run()
    except KeyboardInterrupt:   # uvicorn raises the Ctrl-C again once it has shut down
        pass
    finally:
        for run in app.state.runs.live.values():   # no run outlives the server
            run.cancel()
    return 0


class _AnnouncingServer(uvicorn.Server):
    """Prints the address (and opens it) the moment the server listens."""

    def __init__(self, config, open_browser: bool):
        super().__init__(config)
        self.open_browser = open_browser

    async def startup(self, sockets=None) -> None:
        await super().startup(sockets=sockets)
        if not self.started:
            return
        port = self.servers[0].sockets[0].getsockname()[1]
        url = 'http://%s:%d/' % (HOST, port)
        print('Workshop on %s (Ctrl-C stops it)' % url, flush=True)
        if self.open_browser:
            # Starting a browser may take seconds; the server must not wait.
            threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()
