"""The precheck's arithmetic, with the chapter's numbers."""
from runvil.conversation.precheck import Anchor, admits, count, estimate, reserve
from runvil.gateway.reply import Usage


def user(text: str) -> dict:
    return {'role': 'user', 'content': text}


def test_the_estimate_is_bytes_over_four_once_plus_four_per_message():
    assert estimate([user('x' * 100000)]) == 25004
    assert estimate([user('x' * 396)]) == 103
    # the division runs once over the whole request, not per message
    assert estimate([user('xx'), {'role': 'assistant', 'content': 'xx'}]) == 1 + 8
    assert estimate([user('é' * 4)]) == 2 + 4          # UTF-8 bytes, not characters


def test_text_parts_and_the_whole_serialised_tool_call_count_but_images_do_not():
    parts = {'role': 'user', 'content': [{'type': 'text', 'text': 'x' * 8},
                                         {'type': 'image_url', 'image_url': {'url': 'y' * 400}}]}
    assert estimate([parts]) == 2 + 4
    call = {'id': 'c', 'type': 'function', 'function': {'name': 'n', 'arguments': '{}'}}
    calling = {'role': 'assistant', 'content': '', 'tool_calls': [call]}
    serialised = len('{"id":"c","type":"function","function":{"name":"n","arguments":"{}"}}')
    assert estimate([calling]) == serialised // 4 + 4


def test_the_output_reserve():
    assert reserve(4096, None) == 512
    assert reserve(1_000_000, None) == 8192             # an eighth, capped
    assert reserve(4096, 1000) == 1000
    assert reserve(4096, 100_000) == 2048               # never over half the window


def test_admission_passes_a_total_equal_to_the_window():
    assert admits(103, 123, 20) and not admits(103, 122, 20)
    assert admits(estimate([user('x' * 12000)]), 4096, 1000)
    assert not admits(estimate([user('x' * 12400)]), 4096, 1000)
    assert admits(estimate([user('x' * 12400)]), 4096, None)
    assert admits(estimate([user('x' * 400)]), 4096, 100_000)
    assert not admits(estimate([user('x' * 8400)]), 4096, 100_000)


def test_the_anchor_counts_the_measured_round_plus_what_follows_the_reply():
    sent = [user('xxxxx')]
    anchor = Anchor('m', sent, Usage(3400, 100).anchor)
    request = sent + [{'role': 'assistant', 'content': 'ok'}, user('y' * 400)]
    assert count(request, 'm', anchor) == 3604
    assert not admits(3604, 4096, None)
    assert estimate(request) == 113 and admits(113, 4096, None)


def test_the_anchor_applies_only_when_the_request_extends_the_sent_round_with_the_reply():
    sent = [user('xxxxx')]
    anchor = Anchor('m', sent, 3500)
    reply = {'role': 'assistant', 'content': 'ok'}
    assert count(sent + [reply, user('y')], 'other', anchor) == estimate(sent + [reply, user('y')])
    assert count(sent, 'm', anchor) == estimate(sent)                           # the same request again
    assert count([user('xxxxx\n\nmore')], 'm', anchor) == estimate([user('xxxxx\n\nmore')])
    tool = {'role': 'tool', 'content': 'r', 'tool_call_id': 'c'}
    assert count(sent + [tool], 'm', anchor) == estimate(sent + [tool])        # not an assistant reply
    assert count([user('zzzzz'), reply], 'm', anchor) == estimate([user('zzzzz'), reply])
    assert count(sent + [reply], 'm', anchor) == 3500


def test_reasoning_tokens_never_count_and_the_total_never_drops_below_zero():
    assert Usage(3000, 1200, 800).anchor == 3400
    assert Usage(3000, 1200).anchor == 4200
    assert Usage(0, 10, 50).anchor == 0
