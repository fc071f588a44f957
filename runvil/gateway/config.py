"""The gateway connection settings, built from the two environment variables.

A missing or invalid value is a setup error the Host reports before any run
starts, so no prompt can catch it.  URL messages start with ``gateway URL``,
name the broken rule and never repeat the URL (it may hold secrets).
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

URL_VAR = "RUNVIL_GATEWAY_URL"
KEY_VAR = "RUNVIL_GATEWAY_API_KEY"

_LOOPBACK_V4 = ipaddress.ip_network("127.0.0.0/8")
_LOOPBACK_V6 = ipaddress.ip_address("::1")


class GatewaySetupError(Exception):
    """A gateway environment variable is missing or invalid."""


@dataclass(frozen=True)
class GatewayConfig:
    """Where model calls go.  ``url`` is the API root without a trailing slash."""

    url: str
    api_key: str | None = None

    def __repr__(self) -> str:
        # Keeps the key out of logs and tracebacks.
        key = "None" if self.api_key is None else "'***'"
        return f"GatewayConfig(url={self.url!r}, api_key={key})"

    @property
    def endpoint(self) -> str:
        return f"{self.url}/chat/completions"

    @property
    def is_loopback(self) -> bool:
        return is_loopback_host(urlsplit(self.url).hostname or "")


def is_loopback_host(host: str) -> bool:
    """Exactly ``localhost`` in any case, an address in 127.0.0.0/8, or ``::1``."""
    if host.lower() == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address in _LOOPBACK_V4 if address.version == 4 else address == _LOOPBACK_V6


def _read(environ: Mapping[str, str], name: str) -> str | None:
    value = environ.get(name)
    if value is None:
        return None
    try:
        # os.environ keeps undecodable bytes as lone surrogates.
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise GatewaySetupError(
            f"environment variable is set but not valid Unicode: {name}") from None
    return value


def _url_rule_broken(value: str) -> str | None:
    """The broken URL rule, as a setup message, or None when the URL is valid."""
    if any(ch.isspace() or ord(ch) < 0x20 or ord(ch) == 0x7F for ch in value):
        # urlsplit silently drops some of these, so the URL would change meaning.
        return "gateway URL must not contain whitespace or control characters"
    try:
        parts = urlsplit(value)
        _ = parts.port  # raises ValueError for a port that is not a number in range
    except ValueError:
        return "gateway URL must be a well-formed URL"
    if parts.scheme.lower() not in ("http", "https"):
        return "gateway URL must use the http or https scheme"
    if "@" in parts.netloc:
        return "gateway URL must not embed credentials"
    if not parts.hostname:
        return "gateway URL must name a host"
    if "?" in value:
        return "gateway URL must not have a query"
    if "#" in value:
        return "gateway URL must not have a fragment"
    return None


def load_gateway_config(environ: Mapping[str, str] | None = None) -> GatewayConfig:
    """Build the gateway settings from ``environ`` (default ``os.environ``).

    Raises GatewaySetupError with the spec's message when a variable is
    missing, not valid Unicode, or the URL breaks a rule.
    """
    env = os.environ if environ is None else environ
    url = _read(env, URL_VAR)
    if url is None:
        raise GatewaySetupError(f"missing environment variable: {URL_VAR}")
    broken = _url_rule_broken(url)
    if broken:
        raise GatewaySetupError(broken)
    url = url.rstrip("/")
    key = _read(env, KEY_VAR) or None  # an empty key counts as unset
    if key is not None and any(ord(ch) < 0x20 or ord(ch) == 0x7F for ch in key):
        # It could never be sent in a header; failing now beats a retryable
        # transport failure on every round.
        raise GatewaySetupError("gateway API key must not contain control characters")
    if key is None and not is_loopback_host(urlsplit(url).hostname or ""):
        raise GatewaySetupError(f"missing environment variable: {KEY_VAR}")
    return GatewayConfig(url=url, api_key=key)
