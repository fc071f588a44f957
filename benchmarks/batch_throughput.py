"""``runvil batch`` throughput on the local engine.

    python -m benchmarks.batch_throughput [--runs N] [-j N] [--json FILE]

Starts the scripted gateway on 127.0.0.1 in a process of its own and runs
``runvil batch`` as a user would (a fresh process, start-up included) over
N inputs (default 1,000) of a one-round prompt.  Reports:

* the wall time of the whole batch and runs per second (target, issue 21:
  1,000 runs in under 10 s on 2 cores);
* the per-run overhead beyond the model round: two batches with ``-j 1``
  (one worker, one run at a time) of different sizes give the time per
  run, start-up cancelled out; the mean time of the same round made
  directly with ``GatewayClient`` is subtracted (target: under 5 ms);
* the same overhead in CPU time, which the machine's load hardly moves:
  the CPU seconds of a worker's PromptRunner running the prompt in this
  process, per run, minus those of the direct round.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from benchmarks.gateway_round import gateway_process
from runvil.batch.command import add_arguments
from runvil.batch.records import BatchInput, BatchSpec
from runvil.batch.runner import PromptRunner
from runvil.gateway import GatewayClient, GatewayConfig
from runvil.harness import RunHandle

TARGET_SECONDS = 10.0
TARGET_OVERHEAD_MS = 5.0
REPLY = {"text": "positive", "usage": {"prompt_tokens": 12, "completion_tokens": 1}}
PROMPT = """---
name: sentiment
description: One model round per input.
runvil: 0
input:
  description: a review
models:
  writer: {}
---

# Sentiment

## Classify

```lua
models.use('writer')
return models.infer('Is this review positive or negative? ' .. input.text)
```
"""
SMALL, LARGE = 100, 500     # the two -j 1 batch sizes


def write_inputs(folder: str, count: int) -> str:
    path = os.path.join(folder, "inputs-%d.jsonl" % count)
    with open(path, "w", encoding="utf-8") as handle:
        for number in range(count):
            handle.write(json.dumps({"id": number, "input": "review number %d: it was fine" % number}) + "\n")
    return path


def run_batch(url: str, folder: str, count: int, jobs: int) -> float:
    """Seconds the ``runvil batch`` process took; every run must complete."""
    prompt = os.path.join(folder, "sentiment.md")
    inputs, out = write_inputs(folder, count), os.path.join(folder, "out-%d-%d.jsonl" % (count, jobs))
    env = dict(os.environ, RUNVIL_GATEWAY_URL=url, RUNVIL_GATEWAY_API_KEY="bench")
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "runvil", "batch", prompt, "--inputs", inputs, "--out", out,
                    "-j", str(jobs)], env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seconds = time.perf_counter() - start
    with open(out, encoding="utf-8") as handle:
        outcomes = [json.loads(line)["outcome"] for line in handle]
    if outcomes != ["completed"] * count:
        raise SystemExit("batch of %d: %d lines, not all completed" % (count, len(outcomes)))
    os.unlink(out)
    return seconds


def round_ms(url: str, rounds: int = 200, clock=time.perf_counter) -> float:
    """The mean time of the prompt's model round made directly."""
    request = {"model": "default", "messages": [
        {"role": "user", "content": "Is this review positive or negative? review number 1: it was fine"}]}
    with GatewayClient(GatewayConfig(url)) as client:
        for _ in range(20):
            client.complete(request)
        times = []
        for _ in range(rounds):
            start = clock()
            client.complete(request)
            times.append((clock() - start) * 1e3)
    return statistics.mean(times)


def run_cpu_ms(url: str, folder: str, runs: int = 300) -> float:
    """The mean CPU time of one run as a worker makes it (PromptRunner)."""
    prompt = os.path.join(folder, "sentiment.md")
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    runner = PromptRunner(BatchSpec(PROMPT, prompt, parser.parse_args([prompt, "--inputs", "-"]),
                                    {"RUNVIL_GATEWAY_URL": url}))
    for number in range(20):
        runner.run(BatchInput(number, "review number %d: it was fine" % number), RunHandle())
    start = time.process_time()
    for number in range(runs):
        runner.run(BatchInput(number, "review number %d: it was fine" % number), RunHandle())
    runner.close()
    return (time.process_time() - start) / runs * 1e3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.batch_throughput",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--json", help="also write the results to this file")
    options = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder, gateway_process(REPLY) as url:
        with open(os.path.join(folder, "sentiment.md"), "w", encoding="utf-8") as handle:
            handle.write(PROMPT)
        total = run_batch(url, folder, options.runs, options.jobs)
        small = run_batch(url, folder, SMALL, 1)
        large = run_batch(url, folder, LARGE, 1)
        direct = round_ms(url)
        cpu_run, cpu_round = run_cpu_ms(url, folder), round_ms(url, clock=time.process_time)
    per_run = (large - small) / (LARGE - SMALL) * 1e3
    results = {"runs": options.runs, "jobs": options.jobs, "seconds": round(total, 3),
               "runs_per_second": round(options.runs / total, 1), "per_run_ms_j1": round(per_run, 3),
               "round_ms": round(direct, 3), "overhead_ms": round(per_run - direct, 3),
               "cpu_run_ms": round(cpu_run, 3), "cpu_round_ms": round(cpu_round, 3),
               "cpu_overhead_ms": round(cpu_run - cpu_round, 3)}
    print("%d runs with -j %d: %.2f s (%.0f runs/s): target < %.0f s %s" % (
        options.runs, options.jobs, total, results["runs_per_second"], TARGET_SECONDS,
        "met" if total < TARGET_SECONDS else "MISSED"))
    print("-j 1: %.3f ms per run; the round alone %.3f ms; overhead %.3f ms per run: target < %.0f ms %s" % (
        per_run, direct, results["overhead_ms"], TARGET_OVERHEAD_MS,
        "met" if results["overhead_ms"] < TARGET_OVERHEAD_MS else "MISSED"))
    print("CPU per run in a worker: %.3f ms; the round alone %.3f ms; overhead %.3f ms" % (
        cpu_run, cpu_round, results["cpu_overhead_ms"]))
    if options.json:
        with open(options.json, "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
