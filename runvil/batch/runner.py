"""One batch run, in a worker: the Harness built once per worker process
exactly as ``runvil run`` builds it (``host_setup``), the prompt parsed
once, and each input run into a RunRecord."""
from __future__ import annotations

import time
from ..harness import EventStream, RunHandle
from ..host import report
from ..host.runner import host_setup
from .records import BatchInput, BatchSpec, RunRecord

TOKEN_COUNTS = ('prompt_tokens', 'completion_tokens', 'reasoning_tokens')


class PromptRunner:
    def __init__(self, spec: BatchSpec):
        from ..prompt import ParseError, parse
        self.spec = spec
        self.setup = host_setup(spec.flags, spec.environ, spec.text)
        self.harness = self.setup.harness(operator=_no_operator)
        try:
            self.parsed = parse(spec.text, path=spec.label)
        except ParseError:
            self.parsed = None      # every run reports the parse failure itself

    def run(self, item: BatchInput, handle: RunHandle) -> RunRecord | None:
        """The run's record, or None when it was cancelled."""
        meter = _Meter()
        start = time.perf_counter()
        outcome = self.harness.run(self.spec.text, self.spec.label, input_text=item.input,
                                   args=item.args, handle=handle, events=EventStream([meter]),
                                   parsed=self.parsed)
        seconds = round(time.perf_counter() - start, 6)
        if outcome.status == 'cancelled':
            return None
        shown = report.as_dict(outcome, self.spec.label, self.setup.rejection_hint(outcome))
        return RunRecord(item.id, shown['outcome'], shown['result'], shown['error'], meter.usage(),
                         meter.rounds, seconds)

    def close(self) -> None:
        self.setup.close()


def _no_operator(question: str) -> None:
    """A batch has no operator: ``input.ask`` finds the operator input ended."""
    return None


class _Meter:
    """Counts a run's served model rounds and the tokens the gateway reported."""

    def __init__(self):
        self.rounds = 0
        self.tokens: dict[str, int] = {}

    def __call__(self, event: dict) -> None:
        if event['event'] != 'model_turn_completed':
            return
        self.rounds += 1
        for name, count in (event.get('usage') or {}).items():
            if count is not None:
                self.tokens[name] = self.tokens.get(name, 0) + count

    def usage(self) -> dict | None:
        if not self.tokens:
            return None
        return {name: self.tokens.get(name, 0) for name in TOKEN_COUNTS}
