"""A long differential campaign: the fuzzer's programs (``lua_programs``)
run in batches on lua5.4 and on pylua, and every difference is written down.

    nice -n 19 python -m tests.properties.campaign SECONDS [--seed S]
        [--batch N] [--small-share F] [--jobs J] [--out DIR]

Each batch of ``N`` seeds gives ``2 N`` programs (each body plain and inside
a coroutine), a share ``F`` of the seeds small programs (a few statements:
the same grammar in far less compile time) and the rest big ones, written
to files in a scratch directory.  One ``lua5.4`` process runs all of them
through ``DRIVER``, which holds the programs' prelude (each program takes
fresh ``show`` and ``obj`` from it, so the prelude compiles once per
process), loads each program, runs it under ``pcall`` and ends its output
with a marker line holding the error message (as lua.c would print it);
pylua's side (``campaign_pylua``) runs ``DRIVER`` on each program in a
runtime of its own, all in one process, so that a program costs its own
run and no interpreter start-up.  Up to ``J`` pylua processes share a
batch, more than one only while the machine is otherwise idle (other
processes used less than ``IDLE_LOAD`` cores during the batch before).  A program whose output or message
differs, or that takes pylua down (an internal error, a crash, a hang), is
a finding: its source as it runs alone (the prelude in place of the line
taking it, so its lines are 11 further down than the outcomes say) and
both outcomes are written to ``DIR/SEED-SIZE-FORM.lua``;
``DIR/progress.txt`` holds the running counts.
Programs that lua5.4 itself does not finish are left out, and so is a
difference that lua5.4 shows between its own runs: a program pylua
disagrees with runs again alone on lua5.4 under other collector pacings
(``PACINGS``), and when one of those runs gives pylua's outcome the program
is collector-dependent, not a finding (written to
``DIR/collector-dependent/``).  Lua 5.4.4 saves an instruction's position
for an error message in ``checkGC`` only when a collection step is due, so
which line an integer division by zero names can depend on the heap.
"""
from __future__ import annotations

import argparse
import math
import os
import pathlib
import random
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from tests.properties.lua_programs import PRELUDE, body

# The programs' prelude is the driver's, compiled once: a program starts by
# taking fresh ``show`` and ``obj`` from it (``HEADER``), where alone it
# would define them (``lua_programs.PRELUDE``, most of a small program's
# compile time).
DRIVER = r'''
function prelude()
%s  return show, obj
end
local marker = ...
local saved = {}
for k, v in pairs(_G) do saved[k] = v end
local function message(e)
  local ty = type(e)
  if ty == "string" or ty == "number" then return tostring(e) end
  local mt = getmetatable(e)
  if mt and mt.__tostring then return tostring(e) end
  return "(error object is a " .. ty .. " value)"
end
for i = 2, select("#", ...) do
  local path = select(i, ...)
  local f, err = loadfile(path)
  local ok = f ~= nil
  if ok then ok, err = pcall(f) end
  for k in pairs(_G) do if saved[k] == nil then _G[k] = nil end end
  for k, v in pairs(saved) do _G[k] = v end
  io.write("\n", marker, " ", ok and "ok" or "error", " ",
           ok and "" or (message(err):gsub("\n.*", "")), "\n")
end
''' % PRELUDE
HEADER = 'local show, obj = prelude()\n'
MARKER = '@@campaign-end-of-program@@'
END = re.compile(rb'\n' + re.escape(MARKER.encode()) + rb' (ok|error) ([^\n]*)\n')
# An address, wherever a program's string functions moved it (':1' for ': ',
# 'x55bbf4dcd7900' for a word's first letter rotated to its end by gsub).
ADDRESS = re.compile(rb'(?:: )?0?x[0-9a-f]{8,}')
LUA_SECONDS = 60               # lua5.4 runs a batch in about a second
PYLUA_SECONDS = 900            # pylua, niced on a loaded machine, in minutes
PROGRAM_SECONDS = 120          # one program on pylua (the big ones take seconds)
# lua.c ``-e`` options giving lua5.4 other collector pacings, each set
# whole (whatever the reference command set before): the default, a step
# due nearly always (stopped: the debt stays above zero), nearly never
# (64 MiB between steps) and the generational mode's.
PACINGS = ['collectgarbage("restart")', 'collectgarbage("stop")',
           'collectgarbage("restart") collectgarbage("incremental", 1000, 100, 26)',
           'collectgarbage("restart") collectgarbage("generational")']
IDLE_LOAD = 0.5                # cores other work used: below it, the cores are the campaign's
REPO = pathlib.Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Case:
    seed: int
    in_coroutine: bool
    source: str
    small: bool = False

    @property
    def name(self):
        return '%d-%s-%s' % (self.seed, 'small' if self.small else 'big', 'coroutine' if self.in_coroutine else 'plain')


def cases(seed, small_share):
    """The two programs of ``seed``: one body, plain and in a coroutine."""
    small = random.Random('size %d' % seed).random() < small_share
    return [Case(seed, form, HEADER + body(random.Random(seed), form, small), small) for form in (False, True)]


def standalone(source):
    """A campaign program as it runs alone: the prelude in place of the
    line taking it from the driver (lines after it move down)."""
    return PRELUDE + source[len(HEADER):] if source.startswith(HEADER) else source


def pylua_command(program_seconds=PROGRAM_SECONDS):
    """The campaign's pylua side, running this checkout's pylua."""
    return [sys.executable, '-m', 'tests.properties.campaign_pylua', '--seconds', str(program_seconds)]


def checkout_env():
    """The environment in which subprocesses import this checkout's packages."""
    env = dict(os.environ)
    env['PYTHONPATH'] = os.pathsep.join([str(REPO)] + [p for p in env.get('PYTHONPATH', '').split(os.pathsep) if p])
    return env


@dataclass(frozen=True)
class Outcome:
    stdout: bytes
    error: bytes | None          # the message lua.c would print, first line; None when it ran to the end


@dataclass(frozen=True)
class BatchRun:
    """What one interpreter printed for the first programs of a batch."""
    outcomes: list
    failure: str | None          # why it stopped before the end (crash, internal error, hang)


def busy_seconds():
    """CPU seconds all processes have used since boot (Linux's /proc/stat;
    elsewhere none, so that the campaign takes the machine as busy)."""
    try:
        with open('/proc/stat') as fh:
            fields = [int(f) for f in fh.readline().split()[1:]]
    except OSError:
        return math.inf
    idle, iowait = fields[3], fields[4]
    return (sum(fields[:8]) - idle - iowait) / os.sysconf('SC_CLK_TCK')


def own_seconds():
    """CPU seconds of this process and of its finished subprocesses."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def write_batch(directory, cases):
    """DRIVER and the programs of ``cases`` as files in ``directory``; their names."""
    with open(os.path.join(directory, 'driver.lua'), 'w') as fh:
        fh.write(DRIVER)
    files = []
    for n, case in enumerate(cases):
        files.append('p%d.lua' % n)
        with open(os.path.join(directory, files[-1]), 'w', encoding='latin-1') as fh:
            fh.write(case.source)
    return files


def run_batch(command, directory, files, seconds):
    """Run ``files`` (names in ``directory``) through DRIVER with ``command``."""
    try:
        done = subprocess.run(command + ['driver.lua', MARKER] + files, cwd=directory,
                              capture_output=True, timeout=seconds, env=checkout_env())
        out, failure = done.stdout, None
        if done.returncode:
            failure = done.stderr.decode('latin-1').strip()[:2000] or 'exit status %d' % done.returncode
    except subprocess.TimeoutExpired as exc:
        out, failure = exc.stdout or b'', 'no answer within %d s' % seconds
    outcomes = []
    start = 0
    for end in END.finditer(out):
        stdout = ADDRESS.sub(b': 0x', out[start:end.start()])
        error = ADDRESS.sub(b': 0x', end.group(2)) if end.group(1) == b'error' else None
        outcomes.append(Outcome(stdout, error))
        start = end.end()
    return BatchRun(outcomes, failure)


def balanced(cases, jobs):
    """``cases``' numbers in ``jobs`` parts of about equal work, a program's
    work taken as its source's length (a big program costs ten small ones)."""
    parts = [[] for _ in range(min(jobs, len(cases)))]
    sizes = [0] * len(parts)
    for n in sorted(range(len(cases)), key=lambda n: -len(cases[n].source)):
        least = sizes.index(min(sizes))
        parts[least].append(n)
        sizes[least] += len(cases[n].source)
    return [sorted(part) for part in parts]


class Campaign:
    def __init__(self, out, pylua, lua, jobs=1):
        self.out = out
        self.pylua, self.lua = pylua, lua
        self.jobs = jobs
        self.programs = self.small = self.differences = self.unfinished = self.collector_dependent = 0
        self.started = time.time()
        self.cpu_seen = (self.started, busy_seconds(), own_seconds())

    def others_load(self):
        """The cores other processes kept busy since the last call (the
        kernel's load average is no measure: this machine reports one of
        about 1.4 when idle)."""
        then, busy_then, own_then = self.cpu_seen
        self.cpu_seen = now, busy, own = time.time(), busy_seconds(), own_seconds()
        return ((busy - busy_then) - (own - own_then)) / max(now - then, 1e-9)

    def run(self, cases):
        """Run ``cases`` on both interpreters; a program that stops pylua is
        a finding, and the batch goes on after it.  The programs from the
        first one lua5.4 does not finish on are left out (``unfinished``)."""
        with tempfile.TemporaryDirectory() as directory:
            files = write_batch(directory, cases)
            theirs = run_batch(self.lua, directory, files, LUA_SECONDS).outcomes
            self.unfinished += len(cases) - len(theirs)
            cases = cases[:len(theirs)]
            if not cases:             # lua5.4 finished none of them
                return
            jobs = self.jobs if self.jobs > 1 and self.others_load() < IDLE_LOAD else 1
            parts = balanced(cases, jobs)
            with ThreadPoolExecutor(len(parts)) as pool:
                found = pool.map(lambda part: self.compare(directory, files, part, theirs), parts)
                for n, mine in [f for part in found for f in part]:
                    if isinstance(mine, Outcome) and self.lua_can_give(mine, directory, files[n]):
                        self.collector_dependent += 1
                        self.write(os.path.join(self.out, 'collector-dependent'), cases[n], mine, theirs[n])
                    else:
                        self.finding(cases[n], mine, theirs[n])
            self.programs += len(cases)
            self.small += sum(case.small for case in cases)

    def compare(self, directory, files, part, theirs):
        """Run the programs numbered ``part`` on pylua: the (number, pylua's
        outcome) of each that differs from lua5.4's."""
        found = []
        done = 0
        while done < len(part):
            mine = run_batch(self.pylua, directory, [files[n] for n in part[done:]], PYLUA_SECONDS)
            for n, outcome in zip(part[done:], mine.outcomes):
                if outcome != theirs[n]:
                    found.append((n, outcome))
            done += len(mine.outcomes)
            if done < len(part):
                found.append((part[done], 'pylua stopped: %s' % (mine.failure or 'without a message')))
                done += 1
        return found

    def lua_can_give(self, outcome, directory, file):
        """Does lua5.4 give ``outcome`` for ``file`` when it runs alone under
        one of the ``PACINGS``?"""
        for pacing in PACINGS:
            run = run_batch(self.lua + ['-e', pacing], directory, [file], LUA_SECONDS)
            if run.outcomes == [outcome]:
                return True
        return False

    def finding(self, case, mine, theirs):
        self.differences += 1
        self.write(self.out, case, mine, theirs)

    @staticmethod
    def write(directory, case, mine, theirs):
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(directory, case.name + '.lua'), 'w', encoding='latin-1') as fh:
            fh.write(standalone(case.source) + '\n--[==[\npylua:  %r\nlua5.4: %r\n]==]\n' % (mine, theirs))

    def progress(self, seed):
        seconds = time.time() - self.started
        line = ('programs %d (%d small, %d big), differences %d, next seed %d, %.0f s, %.2f programs/s '
                '(%d left out: lua5.4 did not finish them; %d collector-dependent)') % (
            self.programs, self.small, self.programs - self.small, self.differences, seed, seconds,
            self.programs / max(seconds, 1e-9), self.unfinished, self.collector_dependent)
        with open(os.path.join(self.out, 'progress.txt'), 'w') as fh:
            fh.write(line + '\n')
        return line


def main(argv=None):
    parser = argparse.ArgumentParser(prog='python -m tests.properties.campaign')
    parser.add_argument('seconds', type=float)
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--batch', type=int, default=100, help='seeds per batch (two programs each)')
    parser.add_argument('--small-share', type=float, default=0.9, help='share of the seeds that are small programs')
    parser.add_argument('--jobs', type=int, default=min(2, os.cpu_count() or 1),
                        help='pylua processes sharing a batch while the machine is idle')
    parser.add_argument('--out', default='fuzz-findings')
    parser.add_argument('--lua', default='lua5.4')
    args = parser.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    campaign = Campaign(args.out, pylua_command(), [args.lua], args.jobs)
    end = time.time() + args.seconds
    seed = args.seed
    while time.time() < end:
        campaign.run([c for s in range(seed, seed + args.batch) for c in cases(s, args.small_share)])
        seed += args.batch
        print(campaign.progress(seed), flush=True)


if __name__ == '__main__':
    main()
