"""The model gateway: configuration, the streaming client and its failures.

Importing this package does not import httpx; the client does on its first
model round.
"""

from .client import DEFAULT_RECEIVE_TIMEOUT, DEFAULT_RESPONSE_CAP, GatewayClient
from .config import GatewayConfig, GatewaySetupError, is_loopback_host, load_gateway_config
from .errors import CompletionError, ErrorKind, RoundCancelled
from .listeners import DebugCapture
from .model_list import ModelInfo
from .reply import Completion, ToolCall, Usage

__all__ = [
    "DEFAULT_RECEIVE_TIMEOUT", "DEFAULT_RESPONSE_CAP",
    "Completion", "CompletionError", "DebugCapture", "ErrorKind", "GatewayClient",
    "GatewayConfig", "GatewaySetupError", "ModelInfo", "RoundCancelled", "ToolCall", "Usage",
    "is_loopback_host", "load_gateway_config",
]
