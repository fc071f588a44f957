"""The three run outcomes: completed with a text result, failed with a run
error, or cancelled (no kind, no message)."""
from __future__ import annotations

from dataclasses import dataclass

from ..vocabulary.failure import Failure

COMPLETED, FAILED, CANCELLED = 'completed', 'failed', 'cancelled'


@dataclass(frozen=True)
class Outcome:
    status: str
    result: str | None = None
    error: Failure | None = None

    @classmethod
    def completed(cls, result: str) -> 'Outcome':
        return cls(COMPLETED, result)

    @classmethod
    def failed(cls, failure: Failure) -> 'Outcome':
        return cls(FAILED, error=failure)

    @classmethod
    def cancelled(cls) -> 'Outcome':
        return cls(CANCELLED)

    def to_dict(self) -> dict:
        """The outcome as the CLI contract's JSON object."""
        return {'outcome': self.status, 'result': self.result,
                'error': None if self.error is None else error_dict(self.error)}


def error_dict(failure: Failure) -> dict:
    location = failure.location
    return {
        'kind': failure.kind.value,
        'message': failure.run_message,
        'retryable': failure.retryable,
        'location': None if location is None else {
            'path': location.path, 'line': location.line, 'column': location.column,
            'span': None if location.span is None else list(location.span)},
    }
