"""The built-in chat prompt through the Harness, its turns given by an
operator that answers from a list: a failed turn loses only itself, after
a compaction too."""
from __future__ import annotations

from runvil.engine import Environment, ModelBinding
from runvil.harness import EventStream, Harness
from runvil.workshop.runs import chat_prompt

# Sized for a 400-token window: the first turn fits, the second overflows.
FIRST = ('Plan a three-day walk through Lisbon. '
         + 'I like old streets, tiled houses, small cafes and river views. ' * 12)
FIRST_REPLY = 'Day one: Alfama. ' + 'Walk down to the river, then take the tram up to Graca for the view. ' * 5
SECOND = 'What about day two? I would rather avoid steep hills and be near the water in the evening. ' * 3


def chat(client, turns: list[str]) -> list[dict]:
    """Run the chat prompt over ``turns`` on model ``tiny`` (a 400-token
    window); the run ends when the turns do.  Returns its events."""
    answers = iter(turns)
    events = []
    harness = Harness(environment=Environment(models={'chat': ModelBinding('tiny', 400)}), gateway=client,
                      operator=lambda question: next(answers, None))
    outcome = harness.run(chat_prompt(), None, events=EventStream([events.append]))
    assert outcome.to_dict()['error']['message'] == 'input.ask: no answer came: the operator input ended'
    return events


def logged(events: list[dict]) -> list[str]:
    return [event['message'] for event in events if event['event'] == 'log']


def test_a_failed_turn_leaves_the_turns_before_it(served):
    gateway, client = served({'models': {'tiny': ['one', {'status': 503}, 'three']}})
    events = chat(client, ['first', 'second', 'third'])
    assert logged(events) == ['turn failed: the model backend is overloaded (status 503)']
    assert [message['content'] for message in gateway.requests[-1].json['messages']] == ['first', 'one', 'third']


def test_a_turn_that_fails_after_its_compaction_loses_only_itself(served):
    gateway, client = served({'models': {'tiny': [FIRST_REPLY, 'A walk in Lisbon.', {'status': 503}, 'Fine.']}})
    events = chat(client, [FIRST, SECOND, 'third'])
    compactions = [(event['reason'], event['records_before'], event['records_after'], event['restored'])
                   for event in events if event['event'] == 'compaction']
    assert compactions == [('precheck', 3, 2, False), ('failed turn', 2, 1, False)]
    assert [message['content'] for message in gateway.requests[-1].json['messages']] == [
        'Summary of the earlier conversation: A walk in Lisbon.\n\nthird']


def test_a_failed_compaction_leaves_the_list_as_it_was_and_the_turn_goes(served):
    gateway, client = served({'models': {'tiny': [FIRST_REPLY, {'status': 503}, 'Fine.']}})
    events = chat(client, [FIRST, SECOND, 'third'])
    assert [(event['reason'], event['restored']) for event in events if event['event'] == 'compaction'] == [
        ('precheck', True), ('failed turn', False)]
    assert logged(events)[0].startswith('turn failed: ')
    assert [message['content'] for message in gateway.requests[-1].json['messages']] == [FIRST, FIRST_REPLY, 'third']
