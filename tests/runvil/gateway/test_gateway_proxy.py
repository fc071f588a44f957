"""Proxy variables: a remote gateway is reached through the proxy the
environment names (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY, unless NO_PROXY
covers its host); a loopback gateway is always reached directly.  The
scripted gateway plays the proxy: it records the absolute URL a client
sends to a forward proxy."""

import pytest

from runvil.gateway import CompletionError, GatewayClient, GatewayConfig

ASK = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
REMOTE = "http://gateway.example/v1"
PROXY_VARS = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY",
              "http_proxy", "https_proxy", "all_proxy", "no_proxy")


@pytest.fixture
def environ(monkeypatch):
    for name in PROXY_VARS:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


@pytest.mark.parametrize("variable", ["HTTP_PROXY", "all_proxy"])
def test_a_remote_gateway_goes_through_the_proxy(environ, gateway, variable):
    proxy = gateway([{"text": "via the proxy"}])
    environ.setenv(variable, proxy.url.removesuffix("/v1"))
    with GatewayClient(GatewayConfig(REMOTE, "sk-remote")) as client, pytest.raises(CompletionError):
        client.complete(ASK)  # the scripted gateway is no real proxy: it answers 404
    sent = proxy.requests[0]
    assert sent.path == REMOTE + "/chat/completions"
    assert sent.headers["authorization"] == "Bearer sk-remote"


def test_a_loopback_gateway_ignores_the_proxy(environ, gateway):
    proxy = gateway([{"text": "wrong way"}])
    target = gateway([{"text": "direct"}])
    environ.setenv("HTTP_PROXY", proxy.url.removesuffix("/v1"))
    with GatewayClient(GatewayConfig(target.url)) as client:
        assert client.complete(ASK).text == "direct"
    assert proxy.requests == []
