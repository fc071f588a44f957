"""A batch's progress on stderr and its summary table."""
import io

from runvil.batch.progress import BarProgress, PlainProgress, Tally, progress_for
from runvil.batch.records import RunRecord
from runvil.batch.summary import summary_lines

USAGE = {'prompt_tokens': 10, 'completion_tokens': 2, 'reasoning_tokens': 1}
OVERLOADED = {'kind': 'Completion', 'message': 'the model backend is overloaded', 'retryable': True,
              'location': None}
LUA = {'kind': 'Lua', 'message': 'boom', 'retryable': False, 'location': None}
RECORDS = [
    RunRecord('a', 'completed', 'x', None, USAGE, 1, 0.5),
    RunRecord(2, 'failed', None, OVERLOADED, None, 0, 0.25),
    RunRecord('c', 'failed', None, LUA, USAGE, 1, 1.75),
    RunRecord('d', 'completed', 'y', None, USAGE, 1, 0.125),
]


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_the_summary_table():
    assert summary_lines('out.jsonl', RECORDS, 3, 2) == [
        'batch summary: out.jsonl: 4 results (3 run now, 1 earlier)',
        '  outcome    runs',
        '  completed     2',
        '  failed        2',
        '  error kind  runs  retryable',
        '  Completion     1          1',
        '  Lua            1          0',
        'retryable failures: 1 (rerun them with --retry-failed)',
        'tokens: prompt 30, completion 6, reasoning 3',
        '  slowest id  seconds    outcome',
        '  "c"           1.750     failed',
        '  "a"           0.500  completed',
        '  2             0.250     failed',
        '  "d"           0.125  completed',
        'skipped input lines: 2',
    ]


def test_a_summary_of_nothing():
    assert summary_lines('out.jsonl', [], 0, 0) == [
        'batch summary: out.jsonl: 0 results (0 run now, 0 earlier)',
        '  outcome  runs',
        'tokens: prompt 0, completion 0, reasoning 0',
    ]


def test_plain_lines_at_most_once_a_second_and_one_at_the_end():
    stream, tally = io.StringIO(), Tally(4)
    progress = progress_for(stream, tally)
    assert isinstance(progress, PlainProgress)
    for record in RECORDS[:3]:
        tally.add(record)
        progress.update()
    progress.close()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith('batch: 1/4 done, 0 failed, ')
    assert lines[1].startswith('batch: 3/4 done, 2 failed, ')
    assert lines[1].endswith(', 24 tokens')


def test_a_terminal_gets_the_bar():
    stream, tally = Terminal(), Tally(4)
    progress = progress_for(stream, tally)
    assert isinstance(progress, BarProgress)
    for record in RECORDS:
        tally.add(record)
        progress.update()
    progress.close()
    shown = stream.getvalue()
    assert '4/4' in shown and '2 failed' in shown and '36 tokens' in shown
