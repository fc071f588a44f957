"""The six run limits and their defaults.  One set holds for the whole run
(the H1 pass and every section); every count and size is at least 1."""
from __future__ import annotations

from dataclasses import dataclass, fields

MiB = 1024 * 1024


@dataclass(frozen=True)
class RunLimits:
    round_cap: int = 24                  # model rounds per loop call; a prompt's max_tool_iterations replaces it
    concurrency: int = 8                 # tasks running at once, fanout arms included
    response_cap: int = 16 * MiB         # bytes of one model reply
    memory_ceiling: int = 64 * MiB       # bytes of Lua heap per section VM
    log_event_quota: int = 1024          # log calls per section VM (256 bytes of log byte quota each)
    receive_timeout: float = 120.0       # seconds of waiting for the next part of a model reply

    def __post_init__(self):
        for spec in fields(self):
            value = getattr(self, spec.name)
            if spec.name == 'receive_timeout':
                if type(value) not in (int, float) or not value > 0:
                    raise ValueError('receive_timeout must be a positive number of seconds, got %r' % (value,))
            elif type(value) is not int or value < 1:
                raise ValueError('%s must be a whole number of at least 1, got %r' % (spec.name, value))


LIMIT_NAMES = tuple(spec.name for spec in fields(RunLimits))
