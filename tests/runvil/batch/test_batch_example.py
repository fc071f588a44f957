"""The README's batch example: the example prompt over the example
dataset, against its scripted replies, offline."""
import io
import os

from batch_helpers import by_id, read_records

from runvil.batch.command import main
from runvil.testing.gateway import ScriptedGateway

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))), 'examples')


def test_the_example_dataset_runs_offline(tmp_path):
    out, stdout, stderr = str(tmp_path / 'reviews.out.jsonl'), io.StringIO(), io.StringIO()
    with ScriptedGateway(os.path.join(EXAMPLES, 'review-sentiment.replies.yaml')) as gw:
        status = main([os.path.join(EXAMPLES, 'review-sentiment.md'),
                       '--inputs', os.path.join(EXAMPLES, 'reviews.jsonl'), '--out', out, '-j', '2'],
                      stdout, stderr, {'RUNVIL_GATEWAY_URL': gw.url})
    assert status == 1      # line 6 is skipped
    assert stderr.getvalue().splitlines()[0] == (
        '%s:6: skipped: input must be a string or null, got 42' % os.path.join(EXAMPLES, 'reviews.jsonl'))
    records = by_id(read_records(out))
    assert sorted(records) == ['r1', 'r2', 'r3', 'r4', 'r5', 'r7']
    assert {record['result'] for record in records.values()} == {'positive'}
    assert 'tokens: prompt 246, completion 6, reasoning 0' in stdout.getvalue()
