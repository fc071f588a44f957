"""The gateway environment variables: the URL rule, the key rule, setup errors."""

import os
import subprocess
import sys

import pytest

import runvil
from runvil.gateway import GatewayConfig, GatewaySetupError, is_loopback_host, load_gateway_config

URL = "RUNVIL_GATEWAY_URL"
KEY = "RUNVIL_GATEWAY_API_KEY"


def setup_error(env) -> str:
    with pytest.raises(GatewaySetupError) as caught:
        load_gateway_config(env)
    return str(caught.value)


def test_spec_example_needs_no_key_on_loopback():
    config = load_gateway_config({URL: "http://127.0.0.1:8081/v1"})
    assert config == GatewayConfig("http://127.0.0.1:8081/v1", None)
    assert config.endpoint == "http://127.0.0.1:8081/v1/chat/completions"


def test_trailing_slash_is_dropped():
    config = load_gateway_config({URL: "http://host:8080/v1/", KEY: "k"})
    assert config.url == "http://host:8080/v1"
    assert config.endpoint == "http://host:8080/v1/chat/completions"


def test_https_and_a_root_url_work():
    assert load_gateway_config({URL: "https://gw.example/", KEY: "k"}).endpoint == \
        "https://gw.example/chat/completions"


def test_missing_url():
    assert setup_error({}) == "missing environment variable: RUNVIL_GATEWAY_URL"
    assert setup_error({KEY: "k"}) == "missing environment variable: RUNVIL_GATEWAY_URL"


@pytest.mark.parametrize("host", [
    "127.0.0.1", "127.0.0.2", "127.255.255.254", "[::1]", "localhost", "LOCALHOST", "LocalHost",
])
def test_loopback_hosts_need_no_key(host):
    assert load_gateway_config({URL: f"http://{host}:8081/v1"}).api_key is None


@pytest.mark.parametrize("host", [
    "localhost.evil.com", "evil.localhost", "128.0.0.1", "10.0.0.1", "[::2]",
    "[::ffff:127.0.0.1]", "example.com", "localhost.",
])
def test_other_hosts_need_a_key(host):
    assert setup_error({URL: f"http://{host}:8081/v1"}) == \
        "missing environment variable: RUNVIL_GATEWAY_API_KEY"


def test_an_empty_key_counts_as_unset():
    assert setup_error({URL: "http://gw.example/v1", KEY: ""}) == \
        "missing environment variable: RUNVIL_GATEWAY_API_KEY"
    assert load_gateway_config({URL: "http://127.0.0.1/v1", KEY: ""}).api_key is None


def test_a_set_key_is_kept_for_loopback():
    assert load_gateway_config({URL: "http://localhost:1/v1", KEY: "sk-1"}).api_key == "sk-1"


def test_the_key_never_shows_in_repr():
    assert "sk-secret" not in repr(load_gateway_config({URL: "http://h/v1", KEY: "sk-secret"}))


@pytest.mark.parametrize("value, message", [
    ("ftp://host/v1", "gateway URL must use the http or https scheme"),
    ("host:8080/v1", "gateway URL must use the http or https scheme"),
    ("/v1", "gateway URL must use the http or https scheme"),
    ("", "gateway URL must use the http or https scheme"),
    ("http:///v1", "gateway URL must name a host"),
    ("http://user:secret@host/v1", "gateway URL must not embed credentials"),
    ("http://user@host/v1", "gateway URL must not embed credentials"),
    ("http://host/v1?key=secret", "gateway URL must not have a query"),
    ("http://host/v1?", "gateway URL must not have a query"),
    ("http://host/v1#secret", "gateway URL must not have a fragment"),
    ("http://host:99999/v1", "gateway URL must be a well-formed URL"),
    ("http://host:port/v1", "gateway URL must be a well-formed URL"),
    ("http://[::1/v1", "gateway URL must be a well-formed URL"),
    ("http://host/v1\n", "gateway URL must not contain whitespace or control characters"),
    ("http://ho st/v1", "gateway URL must not contain whitespace or control characters"),
])
def test_url_rules_name_the_rule_and_never_repeat_the_url(value, message):
    got = setup_error({URL: value, KEY: "k"})
    assert got == message
    assert got.startswith("gateway URL")
    if value:
        assert value.strip() not in got


def test_url_is_checked_before_the_key():
    assert setup_error({URL: "ftp://gw.example/v1"}) == \
        "gateway URL must use the http or https scheme"


def test_a_key_with_control_characters_is_refused_without_repeating_it():
    assert setup_error({URL: "http://127.0.0.1/v1", KEY: "sk-1\nX-Forged: 1"}) == \
        "gateway API key must not contain control characters"


def test_not_valid_unicode():
    # os.environ keeps undecodable bytes as lone surrogates.
    assert setup_error({URL: "http://h\udcff/v1"}) == \
        "environment variable is set but not valid Unicode: RUNVIL_GATEWAY_URL"
    assert setup_error({URL: "http://127.0.0.1/v1", KEY: "k\udcff"}) == \
        "environment variable is set but not valid Unicode: RUNVIL_GATEWAY_API_KEY"


def test_not_valid_unicode_from_the_real_environment():
    env = {k.encode(): v.encode() for k, v in os.environ.items()
           if k not in (URL, KEY)}
    env[URL.encode()] = b"http://127.0.0.1/v1"
    env[KEY.encode()] = b"sk-\xff\xfe"
    code = ("from runvil.gateway import load_gateway_config, GatewaySetupError\n"
            "try:\n    load_gateway_config()\n"
            "except GatewaySetupError as e:\n    print(e)\n")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          cwd=os.path.dirname(os.path.dirname(runvil.__file__)), check=True)
    assert done.stdout.decode().strip() == \
        "environment variable is set but not valid Unicode: RUNVIL_GATEWAY_API_KEY"


def test_is_loopback_host():
    assert is_loopback_host("127.1.2.3") and is_loopback_host("::1")
    assert not is_loopback_host("localhost.evil.com")
