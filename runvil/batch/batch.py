"""One ``runvil batch``: check the setup, read the inputs and what the
output already holds, plan, run on the chosen engine writing each record
as it comes, and sum up."""
from __future__ import annotations

import os

from ..host.runner import SetupError, host_setup, read_text
from .inputs import InputsError, read_inputs
from .local_engine import LocalEngine, WorkerSetupError
from .output import OutputError, OutputFile, read_output
from .plan import PlanError, make_plan
from .progress import Tally, progress_for
from .records import BatchSpec
from .summary import summary_lines

SETUP_ERROR = 2
CANCELLED = 130
GATEWAY_PREFIX = 'RUNVIL_'


def run_batch(args, stdout, stderr, environ, stop) -> int:
    try:
        return _run(args, stdout, stderr, environ, stop)
    except (SetupError, InputsError, OutputError, PlanError, WorkerSetupError) as err:
        stderr.write('runvil batch: error: %s\n' % err)
        return SETUP_ERROR


def _run(args, stdout, stderr, environ, stop) -> int:
    text = read_text(args.prompt, 'prompt')
    host_setup(args, environ, text).close()        # a setup error shows before any worker starts
    spec = BatchSpec(text, args.prompt, _harness_flags(args),
                     {name: value for name, value in environ.items() if name.startswith(GATEWAY_PREFIX)})
    engine = _engine(args, spec)
    inputs = read_inputs(args.inputs)
    for bad in inputs.bad:
        stderr.write('%s:%d: skipped: %s\n' % (args.inputs, bad.line, bad.message))
    out = args.out or default_out(args.inputs)
    plan = make_plan(inputs.runs, read_output(out), out, resume=args.resume,
                     retry_failed=args.retry_failed, limit=args.limit)
    tally = Tally(len(plan.runs))
    output = OutputFile(out)
    progress = progress_for(stderr, tally)
    records = list(plan.kept)

    def finished(record) -> None:
        output.write(record)
        records.append(record)
        tally.add(record)
        progress.update()

    try:
        engine.run(plan.runs, finished, stop)
    finally:
        output.close()
        progress.close()
    for line in summary_lines(out, records, tally.done, len(inputs.bad)):
        stdout.write(line + '\n')
    stdout.flush()
    if stop.requested.is_set():
        return CANCELLED
    return 0 if not inputs.bad and all(record.outcome == 'completed' for record in records) else 1


def default_out(inputs: str) -> str:
    stem, extension = os.path.splitext(inputs)
    return (stem if extension in ('.jsonl', '.csv', '.json') else inputs) + '.results.jsonl'


def _harness_flags(args):
    """The parsed flags without the command's handler, for the workers."""
    flags = type(args)(**vars(args))
    vars(flags).pop('handler', None)
    return flags


def _engine(args, spec: BatchSpec):
    jobs = args.jobs or os.cpu_count() or 1
    if args.engine == 'ray':
        from .ray_engine import RayEngine
        return RayEngine(spec, jobs, args.ray_address)
    if args.ray_address is not None:
        raise SetupError('--ray-address needs --engine ray')
    return LocalEngine(spec, jobs)
