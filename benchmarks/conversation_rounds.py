"""A long conversation: one models.loop call of N tool rounds (default 500).

    python -m benchmarks.conversation_rounds [--rounds N] [--json FILE]

(a) Engine overhead per round: the Engine runs the loop with an in-process
answerer that replies to each model round at once (no HTTP), so the time
is the Engine's own work per round: composing and checking the list, the
precheck, judging the reply, running the local tool's Lua handler,
appending the records.  The per-round time of the first and the last
tenth of the rounds shows whether the cost grows with the conversation
(the list holds 2N+2 records at the end).  Target (issue 8): under 5 ms
per round, no quadratic growth.
(b) The same loop end to end over HTTP against the scripted gateway on
127.0.0.1 (streamed SSE replies), for the whole picture.
"""
from __future__ import annotations

import argparse
import json
import time

ROUND_TARGET_MS = 5.0

PROMPT = """---
name: long
description: A long tool conversation.
runvil: 0
max_tool_iterations: 1000
models:
  writer: {}
---

# Long

## Chat

```lua
models.use('writer')
tools.offer_local('tick', 'Counts a tick', { type = 'object' }, function(args)
  return 'tick ' .. args.n
end)
messages:user('Call tick until told to stop.')
models.loop()
return #messages .. '|' .. messages[#messages].content
```
"""


def _replies(rounds: int):
    from runvil.gateway.reply import Completion, ToolCall, Usage
    for n in range(rounds):
        call = ToolCall('call_%d' % n, 'tick', '{"n":%d}' % n)
        yield Completion('', tool_calls=(call,), finish_reason='tool_calls', usage=Usage(40 + 30 * n, 12))
    yield Completion('done', finish_reason='stop', usage=Usage(40 + 30 * rounds, 2))


class _InstantModel:
    """Answers every model round at once with the next scripted completion,
    noting when each round was answered."""

    def __init__(self, rounds: int):
        self.replies = _replies(rounds)
        self.stamps: list[float] = []

    def __call__(self, effect, reply):
        from runvil.engine import Answer
        from runvil.models.rounds import MODEL_ROUND, RoundResult
        self.stamps.append(time.perf_counter())
        reply(Answer.ok(MODEL_ROUND, RoundResult(completion=next(self.replies))))
        return self

    def abort(self) -> None:
        pass


def _environment():
    """A model with a window the long conversation fits in."""
    from runvil.engine import Environment, ModelBinding
    return Environment(models={'writer': ModelBinding('long-context', 1_000_000)})


def engine_overhead(rounds: int) -> dict:
    from runvil.models.rounds import MODEL_ROUND
    from runvil.harness import Harness
    model = _InstantModel(rounds)
    start = time.perf_counter()
    outcome = Harness(environment=_environment(), answerers={MODEL_ROUND: model}).run(PROMPT, 'long.md')
    total = time.perf_counter() - start
    assert outcome.result == '%d|done' % (2 * rounds + 2), outcome.to_dict()
    gaps = [b - a for a, b in zip(model.stamps, model.stamps[1:])]
    tenth = max(1, len(gaps) // 10)
    return {'rounds': rounds + 1, 'total_s': total, 'per_round_ms': 1000 * total / (rounds + 1),
            'first_tenth_ms': 1000 * sum(gaps[:tenth]) / tenth, 'last_tenth_ms': 1000 * sum(gaps[-tenth:]) / tenth}


def over_http(rounds: int) -> dict:
    from runvil.gateway import GatewayClient, GatewayConfig
    from runvil.harness import Harness
    from runvil.testing.gateway import ScriptedGateway
    script = [{'tool_calls': [{'id': 'call_%d' % n, 'name': 'tick', 'arguments': {'n': n}}]} for n in range(rounds)]
    with ScriptedGateway(script + ['done']) as gateway, GatewayClient(GatewayConfig(gateway.url, None)) as client:
        start = time.perf_counter()
        outcome = Harness(environment=_environment(), gateway=client).run(PROMPT, 'long.md')
        total = time.perf_counter() - start
    assert outcome.result == '%d|done' % (2 * rounds + 2), outcome.to_dict()
    return {'rounds': rounds + 1, 'total_s': total, 'per_round_ms': 1000 * total / (rounds + 1)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog='python -m benchmarks.conversation_rounds', description=__doc__.split('\n')[0])
    parser.add_argument('--rounds', type=int, default=500, help='tool rounds before the final reply (500)')
    parser.add_argument('--json', metavar='FILE', help='also save the figures as JSON')
    args = parser.parse_args(argv)
    engine = engine_overhead(args.rounds)
    http = over_http(args.rounds)
    print('one models.loop call, %d tool rounds + the final reply' % args.rounds)
    print('  engine overhead: %.2f ms per round (target < %.0f ms); first tenth %.2f ms, last tenth %.2f ms'
          % (engine['per_round_ms'], ROUND_TARGET_MS, engine['first_tenth_ms'], engine['last_tenth_ms']))
    print('  over HTTP (scripted gateway): %.2f ms per round, %.2f s in all' % (http['per_round_ms'], http['total_s']))
    if args.json:
        with open(args.json, 'w', encoding='utf-8') as out:
            json.dump({'engine': engine, 'http': http}, out, indent=2)
    return 0


if __name__ == '__main__':
    raise SystemExit(main())
