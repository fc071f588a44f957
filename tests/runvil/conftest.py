"""Fixtures shared by runvil tests: a scripted model gateway on 127.0.0.1.

``gateway(script, **options)`` starts a ScriptedGateway on a free port and
stops it at teardown; ``gateway_client(gw, **options)`` builds a
GatewayClient pointed at it (or at any URL) and closes it at teardown.
"""

from __future__ import annotations

import pytest

from runvil.gateway import GatewayClient, GatewayConfig
from runvil.testing.gateway import ScriptedGateway


@pytest.fixture
def gateway():
    started: list[ScriptedGateway] = []

    def start(script=None, **options) -> ScriptedGateway:
        gw = ScriptedGateway(script, **options).start()
        started.append(gw)
        return gw

    yield start
    for gw in started:
        gw.stop()


@pytest.fixture
def gateway_client():
    clients: list[GatewayClient] = []

    def build(target, *, api_key: str | None = None, **limits) -> GatewayClient:
        url = target if isinstance(target, str) else target.url
        client = GatewayClient(GatewayConfig(url, api_key), **limits)
        clients.append(client)
        return client

    yield build
    for client in clients:
        client.close()


@pytest.fixture
def served(gateway, gateway_client):
    """``served(script)``: a scripted gateway and a GatewayClient pointed at it."""
    def start(script=None, **limits):
        gw = gateway(script)
        return gw, gateway_client(gw, **limits)
    return start
