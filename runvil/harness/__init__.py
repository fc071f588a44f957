"""The Harness: answers the Engine's effects and applies the run limits."""
from .events import EventStream
from .handle import RunHandle
from .harness import Harness
from .limits import LIMIT_NAMES, RunLimits

__all__ = ['EventStream', 'Harness', 'LIMIT_NAMES', 'RunHandle', 'RunLimits']
