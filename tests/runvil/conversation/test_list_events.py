"""The events a Host shows the conversation from: each section's
``messages`` as its VM ends, and each compaction, kept or restored."""
from __future__ import annotations

from gateway_runs import result
from loop_helpers import chat


def test_a_section_reports_its_records_meta_included_as_its_vm_ends(served):
    _, client = served(['pong'])
    events = []
    source = "messages:system('be brief'):user('ping', { n = 1 })\nmodels.loop()\nreturn 'done'"
    assert result(client, chat(source), events=events) == 'done'
    [listed] = [event for event in events if event['event'] == 'messages']
    assert listed['section'] == 'Chat'
    assert listed['records'] == [{'role': 'system', 'content': 'be brief'},
                                 {'role': 'user', 'content': 'ping', 'meta': {'n': 1}},
                                 {'role': 'assistant', 'content': 'pong'}]
    names = [event['event'] for event in events]
    assert names.index('messages') < names.index('section_finished')


def test_an_empty_list_reports_no_records(served):
    _, client = served()
    events = []
    assert result(client, chat("return 'quiet'"), events=events) == 'quiet'
    assert 'messages' not in [event['event'] for event in events]


def test_each_compaction_reports_what_it_left_or_that_it_put_the_records_back(served):
    _, client = served()
    events = []
    source = ("messages:user('u1'):assistant('a1'):user('u2')\n"
              "models.compact(function() messages:replace(1, 2) end, 'trim')\n"
              "pcall(models.compact, function() compactors.clear() error('no') end, 'again')\n"
              "return tostring(#messages)")
    assert result(client, chat(source), events=events) == '1'
    assert [{key: event[key] for key in ('section', 'reason', 'records_before', 'records_after', 'restored')}
            for event in events if event['event'] == 'compaction'] == [
        {'section': 'Chat', 'reason': 'trim', 'records_before': 3, 'records_after': 1, 'restored': False},
        {'section': 'Chat', 'reason': 'again', 'records_before': 1, 'records_after': 1, 'restored': True}]
