"""``gateway_client`` here can build clients for either route: in a module
that sets ``BOTH_ROUTES = True`` each test using it runs once over the
direct route (what a loopback gateway gets) and once over the httpx route
(what https and proxied gateways get), both against the real scripted
gateway."""

import httpx
import pytest

from runvil.gateway import GatewayClient, GatewayConfig



def pytest_generate_tests(metafunc):
    if getattr(metafunc.module, "BOTH_ROUTES", False) and "gateway_client" in metafunc.fixturenames:
        metafunc.parametrize("gateway_client", ["direct", "httpx"], indirect=True)


@pytest.fixture
def gateway_client(request):
    route = getattr(request, "param", "direct")
    clients: list[GatewayClient] = []

    def build(target, *, api_key: str | None = None, **limits) -> GatewayClient:
        url = target if isinstance(target, str) else target.url
        # A transport given to the client sends every round over the httpx route
        # (plain http: no certificates to load).
        transport = httpx.AsyncHTTPTransport(trust_env=False, verify=False) if route == "httpx" else None
        client = GatewayClient(GatewayConfig(url, api_key), transport=transport, **limits)
        clients.append(client)
        return client

    yield build
    for client in clients:
        client.close()
