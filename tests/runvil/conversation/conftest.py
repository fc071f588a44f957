"""``served(script)``: a scripted gateway and a GatewayClient pointed at it."""
import pytest


@pytest.fixture
def served(gateway, gateway_client):
    def start(script=None, **limits):
        gw = gateway(script)
        return gw, gateway_client(gw, **limits)
    return start
