"""A list composed round after round gives exactly what composing it from
scratch gives, and never changes an earlier request."""
import copy

from hypothesis import given
from hypothesis import strategies as st

from runvil.conversation.compose import Composer, compose
from runvil.conversation.precheck import text_bytes
from runvil.conversation.records import RecordError, check
from runvil.vocabulary.failure import Failure

IDS = st.sampled_from(['c1', 'c2', 'c3', 'c4'])
CONTENT = st.one_of(st.sampled_from(['', 'a', 'b c']),
                    st.just([{'type': 'text', 'text': 'p'}]),
                    st.just([{'type': 'image_url', 'image_url': {'url': 'u'}}]))
RECORD = st.fixed_dictionaries(
    {'role': st.sampled_from(['system', 'user', 'assistant', 'tool']), 'content': CONTENT},
    optional={'tool_calls': st.lists(st.builds(lambda i: {'id': i, 'name': 'n', 'arguments': {'k': i}}, IDS),
                                     min_size=1, max_size=2),
              'tool_call_id': IDS})


def outcome(action):
    try:
        return action()
    except Failure as failure:
        return failure.message


@given(st.lists(st.tuples(RECORD, st.booleans()), max_size=14))
def test_composing_round_after_round_matches_composing_from_scratch(steps):
    records, composer, earlier = [], Composer(), []
    for data, request_now in steps:
        try:
            records.append(check(data, len(records) + 1))
        except RecordError:
            continue
        if not request_now:
            continue
        if composer.error is not None:
            composer = Composer()       # what the list does after a broken rule
        composer.feed(records)
        got = outcome(composer.request)
        assert got == outcome(lambda: compose(records))
        if not isinstance(got, str):
            assert composer.text_bytes == sum(map(text_bytes, got))
            earlier.append((got, copy.deepcopy(got)))
    for request, frozen in earlier:
        assert request == frozen
