"""Requests the Workshop answers: only its own page's.  The server listens
on 127.0.0.1, but any web page open in the same browser can send requests
there; a write or a run started that way would spend the user's model
access.  So every request must name a loopback host (no DNS rebinding),
and a POST must carry a JSON body (another site cannot send one without a
preflight the Workshop never grants) from no other origin."""
from __future__ import annotations

from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse

LOOPBACK_NAMES = ('127.0.0.1', 'localhost')


class LocalOnly:
    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope['type'] == 'http':
            refusal = refused(scope['method'], Headers(scope=scope))
            if refusal is not None:
                await JSONResponse({'error': refusal}, status_code=403)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def refused(method: str, headers: Headers) -> str | None:
    """Why a request is refused, None when it is the page's."""
    host = headers.get('host', '')
    if urlsplit('//' + host).hostname not in LOOPBACK_NAMES:
        return 'the Workshop answers requests to 127.0.0.1 only, not to %s' % (host or 'no host')
    if method != 'POST':
        return None
    if headers.get('content-type', '').split(';')[0].strip() != 'application/json':
        return 'the Workshop takes JSON bodies only'
    origin = headers.get('origin')
    if origin is not None and urlsplit(origin).netloc != host:
        return 'the Workshop answers its own page only, not %s' % origin
    return None
