"""The offline examples in examples/ give what the docs say."""
import io
import json
from pathlib import Path

from runvil.host import main

EXAMPLES = Path(__file__).resolve().parents[3] / 'examples'


def run(*argv, environ=None):
    out, err = io.StringIO(), io.StringIO()
    assert main(list(argv), out, err, environ=environ) == 0, err.getvalue()
    return out.getvalue(), err.getvalue()


def test_word_stats_counts_across_sections():
    out, _ = run(str(EXAMPLES / 'word-stats.md'))
    assert out == '13 words, the most frequent: [{"count":3,"word":"the"},{"count":2,"word":"dog"},' \
                  '{"count":1,"word":"and"}]\n'
    out, err = run('--set', 'text=a b a c b a', '--set', 'top=2', '--log', str(EXAMPLES / 'word-stats.md'))
    assert out == '6 words, the most frequent: [{"count":3,"word":"a"},{"count":2,"word":"b"}]\n'
    assert err == '[Split] split 6 words\n[Report] reporting\n'


def test_guarded_turns_failures_into_data():
    out, _ = run('--json', str(EXAMPLES / 'guarded.md'))
    assert json.loads(json.loads(out)['result']) == {
        'failures': ['lua: json.decode: Expecting value at line 1 column 8'], 'parsed': 2,
        'refused': 'var.handle.array must be JSON data, got function'}


def test_search_chat_with_its_scripted_replies(gateway):
    gw = gateway(str(EXAMPLES / 'search-chat.replies.yaml'))
    out, err = run('--pack', 'runvil.testing.packs', '--log', str(EXAMPLES / 'search-chat.md'),
                   environ={'RUNVIL_GATEWAY_URL': gw.url})
    assert out == 'The Tour Montparnasse, at 210 metres, is the tallest building in Paris proper.\n'
    assert err == '[Ask] answered after 7 records\n'
    assert [m['role'] for m in gw.requests[2].json['messages']] == ['system', 'user', 'assistant', 'tool',
                                                                     'assistant', 'tool']
    assert 'Tour Montparnasse, at 210 metres' in gw.requests[2].json['messages'][-1]['content']


def test_fanout_stats_counts_each_text_in_a_task():
    out, err = run('--log', str(EXAMPLES / 'fanout-stats.md'))
    assert out == '4  the quick brown fox\n5  jumps over the lazy dog\n4  and the dog sleeps\n13  in all\n'
    assert err == '[Gather] counted 3 texts\n'   # the arms log nothing
    out, _ = run('--set', 'texts=a b|c', '--concurrency', '1', str(EXAMPLES / 'fanout-stats.md'))
    assert out == '2  a b\n1  c\n3  in all\n'


def test_research_person_with_its_scripted_replies(gateway):
    gw = gateway(str(EXAMPLES / 'research-person.replies.yaml'))
    out, err = run('--pack', 'runvil.testing.packs', '--log', str(EXAMPLES / 'research-person.md'),
                   environ={'RUNVIL_GATEWAY_URL': gw.url})
    assert out == 'Ada Lovelace was an English mathematician who wrote the first published algorithm meant ' \
                  'for a machine.\n'
    assert err == '[Research] researched in 6 records\n'
    assert gw.requests[0].json['messages'] == [{'role': 'user', 'content': (
        'Find what the web says about Ada Lovelace: search, read the best\npage, and answer with the facts '
        'you found.')}]
    assert 'Analytical Engine' in gw.requests[2].json['messages'][-1]['content']
    summary = gw.requests[3].json['messages']
    assert [m['role'] for m in summary] == ['system', 'user']
    assert summary[1]['content'] == 'Summarize the person.'
    assert summary[0]['content'].startswith('Facts found on the web: Ada Lovelace (1815-1852)')
