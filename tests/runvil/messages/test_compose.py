"""What the model receives: the cross-record checks and their five
messages, the leading system block, same-role merging, tool exchanges."""
import copy
import json

import pytest

from runvil.conversation.compose import compose
from runvil.vocabulary.failure import Failure
from runvil.vocabulary.kinds import ErrorKind


def text(role, content, **fields):
    return dict({'role': role, 'content': content}, **fields)


def call(call_id, name='read', arguments=None):
    return {'id': call_id, 'name': name, 'arguments': {} if arguments is None else arguments}


def asks(*calls, content=''):
    return text('assistant', content, tool_calls=list(calls))


def result(call_id, content='r'):
    return text('tool', content, tool_call_id=call_id)


def refusal(records) -> str:
    before = copy.deepcopy(records)
    with pytest.raises(Failure) as caught:
        compose(records)
    assert records == before
    assert caught.value.error_kind is ErrorKind.LUA
    return caught.value.message


def test_the_first_example_sends_two_messages_for_four_records():
    records = [text('system', 'You are terse.'), text('system', 'Answer in French.'),
               text('user', 'Hello.'), text('user', 'What time is it?')]
    assert compose(records) == [{'role': 'system', 'content': 'You are terse.\n\nAnswer in French.'},
                                {'role': 'user', 'content': 'Hello.\n\nWhat time is it?'}]
    assert len(records) == 4


def test_a_well_formed_list_reaches_the_model_as_written_without_meta():
    records = [text('system', 'be terse'), text('user', 'hi', meta={'a': 1}), text('assistant', 'hello'),
               text('user', 'thanks')]
    assert compose(records) == [{'role': 'system', 'content': 'be terse'}, {'role': 'user', 'content': 'hi'},
                                {'role': 'assistant', 'content': 'hello'}, {'role': 'user', 'content': 'thanks'}]


def test_eight_records_heal_into_a_clean_alternation():
    records = [text('system', 's1'), text('system', 's2'), text('user', ''), text('user', 'hi'),
               text('assistant', ''), text('assistant', 'answer'), text('assistant', ''), text('user', 'next')]
    assert [(m['role'], m['content']) for m in compose(records)] == \
        [('system', 's1\n\ns2'), ('user', 'hi'), ('assistant', 'answer'), ('user', 'next')]


def test_assistant_fragments_join_with_no_separator():
    records = [text('user', 'q')] + [text('assistant', piece) for piece in ('Hello', ', ', 'world', '!')]
    assert compose(records)[1] == {'role': 'assistant', 'content': 'Hello, world!'}


def test_text_before_a_tool_call_record_becomes_its_visible_content():
    records = [text('user', 'q'), text('assistant', 'let me check'), asks(call('call_1')), result('call_1')]
    sent = compose(records)
    assert sent[1] == {'role': 'assistant', 'content': 'let me check', 'tool_calls': [
        {'id': 'call_1', 'type': 'function', 'function': {'name': 'read', 'arguments': '{}'}}]}
    assert sent[2] == {'role': 'tool', 'content': 'r', 'tool_call_id': 'call_1'}


def test_a_tool_exchange_replays_verbatim_with_arguments_as_json_text():
    records = [text('user', 'Read the notes.'),
               asks(call('call_1', 'read', {'path': 'notes.txt', 'limit': 3}),
                    call('call_2', 'search', {'query': 'tool_calls', 'recursive': True})),
               result('call_2', 'two matches'), result('call_1', 'first line')]
    sent = compose(records)
    assert [m['role'] for m in sent] == ['user', 'assistant', 'tool', 'tool']
    calls = sent[1]['tool_calls']
    assert [c['id'] for c in calls] == ['call_1', 'call_2']
    assert json.loads(calls[0]['function']['arguments']) == {'path': 'notes.txt', 'limit': 3}
    assert all(set(m) <= {'role', 'content', 'tool_call_id', 'tool_calls'} for m in sent)


def test_parts_merge_in_arrival_order():
    image = {'type': 'image_url', 'image_url': {'url': 'data:,'}}
    users = [text('user', 'a'), text('user', [image]), text('user', '')]
    assert compose(users)[0]['content'] == [{'type': 'text', 'text': 'a'}, {'type': 'text', 'text': '\n\n'},
                                            image, {'type': 'text', 'text': '\n\n'}]
    assistants = [text('user', 'q'), text('assistant', 'x'), text('assistant', ''),
                  text('assistant', [image]), text('assistant', 'y')]
    assert compose(assistants)[1]['content'] == [{'type': 'text', 'text': 'x'}, image, {'type': 'text', 'text': 'y'}]


def test_a_lone_leading_system_record_keeps_its_parts():
    parts = [{'type': 'text', 'text': 'rules'}]
    assert compose([text('system', parts), text('user', 'u')])[0] == {'role': 'system', 'content': parts}


@pytest.mark.parametrize('records, message', [
    ([text('user', 'hi'), asks(call('call_1', arguments={'path': 'notes.txt'}))],
     'messages[2] tool call "call_1" has no tool result'),
    ([asks(call('call_1'), call('call_2')), result('call_1'), text('user', 'u')],
     'messages[1] tool call "call_2" has no tool result'),
    ([asks(call('call_1')), asks(call('call_2')), result('call_2')],
     'messages[1] tool call "call_1" has no tool result'),
    ([asks(call('call_1'), call('call_1')), result('call_1')],
     'messages[1] tool call id "call_1" duplicates an earlier tool call'),
    ([asks(call('call_1')), result('call_1'), asks(call('call_1')), result('call_1')],
     'messages[3] tool call id "call_1" duplicates an earlier tool call'),
    ([text('user', 'u'), result('call_9')],
     'messages[2] is an orphan tool record: no pending assistant tool call with id "call_9"'),
    ([asks(call('call_1')), result('call_1'), result('call_1')],
     'messages[3] is an orphan tool record: no pending assistant tool call with id "call_1"'),
    ([asks(call('call_1'), call('call_2')), result('call_1'), result('call_1')],
     'messages[3] is an orphan tool record: no pending assistant tool call with id "call_1"'),
    ([text('user', 'u', tool_calls=[call('c')])], 'messages[1] sets tool_calls but is not an assistant message'),
    ([text('system', 'a'), text('system', [{'type': 'text', 'text': 'b'}])],
     'messages[2] is a system message with content parts; only plain text system messages can be composed'),
])
def test_each_cross_record_rule_has_its_message(records, message):
    assert refusal(records) == message


def test_the_rules_run_in_their_fixed_order():
    parts = [{'type': 'text', 'text': 'b'}]
    # the leading block's plain-text rule comes before every other rule
    assert refusal([text('system', 'a'), text('system', parts), result('x')]).startswith('messages[2] is a system')
    # tool_calls placement before the record's own role rule
    assert refusal([text('user', 'u'), text('tool', 'r', tool_call_id='x', tool_calls=[call('c')])]) == \
        'messages[2] sets tool_calls but is not an assistant message'
    # list order: an earlier orphan before a later unanswered call
    assert refusal([result('x'), asks(call('c'))]).startswith('messages[1] is an orphan')


def test_an_empty_list_passes_and_sends_nothing():
    assert compose([]) == []


def test_changing_what_was_sent_leaves_the_records_alone():
    parts = [{'type': 'text', 'text': 'a'}]
    records = [text('user', parts), asks(call('c', arguments={'k': [1]})), result('c')]
    before = copy.deepcopy(records)
    sent = compose(records)
    sent[0]['content'][0]['text'] = 'changed'
    sent[1]['tool_calls'][0]['id'] = 'changed'
    assert records == before
