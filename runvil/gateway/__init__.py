"""The model gateway: configuration, the streaming client and its failures.

Importing this package does not import httpx; the client does on its first
model round.
"""

from .client import (
    CANCEL_POLL_SECONDS,
    DEFAULT_RECEIVE_TIMEOUT,
    DEFAULT_RESPONSE_CAP,
    DebugCapture,
    GatewayClient,
)
from .config import GatewayConfig, GatewaySetupError, is_loopback_host, load_gateway_config
from .errors import CompletionError, ErrorKind, RoundCancelled
from .reply import Completion, ToolCall, Usage

__all__ = [
    "CANCEL_POLL_SECONDS", "DEFAULT_RECEIVE_TIMEOUT", "DEFAULT_RESPONSE_CAP",
    "Completion", "CompletionError", "DebugCapture", "ErrorKind", "GatewayClient",
    "GatewayConfig", "GatewaySetupError", "RoundCancelled", "ToolCall", "Usage",
    "is_loopback_host", "load_gateway_config",
]
