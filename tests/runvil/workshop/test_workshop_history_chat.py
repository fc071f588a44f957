"""The History and Chat views in a real browser: past runs reopened from
``DIR/.runvil/runs/`` as they were, two runs compared, and the built-in
chat prompt over two turns with a compaction and a failed turn."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

expect = pytest.importorskip('playwright.sync_api', reason='the Workshop browser tests need playwright').expect

EXAMPLES = Path(__file__).parents[3] / 'examples'
WORD_STATS = (EXAMPLES / 'word-stats.md').read_text(encoding='utf-8')


TEXT = 'the quick brown fox jumps over the lazy dog and the dog sleeps'
ONE = '13 words, the most frequent: [{"count":3,"word":"the"}]'
TWO = '13 words, the most frequent: [{"count":3,"word":"the"},{"count":2,"word":"dog"}]'


def run_word_stats(page, top: str, expected: str) -> None:
    page.locator('#form-args input[name="arg:top"]').fill(top)
    page.locator('#run').click()
    expect(page.locator('#run-view .result-text')).to_have_text(expected)


def test_past_runs_reopen_as_they_were_and_two_compare_side_by_side(page, workshop, open_prompt, shot):
    served = workshop({'word-stats.md': WORD_STATS})
    open_prompt(served, 'word-stats.md')
    run_word_stats(page, '1', ONE)
    run_word_stats(page, '2', TWO)

    kept = sorted((served.root / '.runvil' / 'runs').glob('*.jsonl'))
    assert len(kept) == 2
    events = [json.loads(line) for line in kept[0].read_text().splitlines()]
    assert events[0]['event'] == 'workshop_run' and events[0]['args'] == {'text': TEXT, 'top': '1'}
    assert events[-1]['event'] == 'run_finished' and events[-1]['result'] == ONE

    page.locator('#tab-history').click()
    rows = page.locator('#history-rows tr')
    expect(rows).to_have_count(2)
    expect(rows.nth(1).locator('td').nth(2)).to_have_text('word-stats.md')
    expect(rows.nth(1).locator('td').nth(3)).to_have_text('completed')
    rows.nth(1).locator('.open-run').click()
    detail = page.locator('#history-detail')
    expect(detail.locator('.result-text')).to_have_text(ONE)
    expect(detail.locator('.run-meta')).to_have_text('text = %s · top = 1' % TEXT)
    expect(detail.locator('.entry.log')).to_contain_text(['Splitsplit 13 words'])
    shot(page, 'history')

    rows.nth(0).locator('.pick').check()
    rows.nth(1).locator('.pick').check()
    page.locator('#compare').click()
    expect(detail.locator('.compare-banner')).to_have_text('The outcomes or results differ · no messages in either')
    expect(detail.locator('.compare-side .result-text')).to_have_text([TWO, ONE])
    expect(detail.locator('.compare-side .run-meta')).to_have_text(['text = %s · top = 2' % TEXT,
                                                                    'text = %s · top = 1' % TEXT])
    shot(page, 'compare')


# Sized for a 400-token window: the first turn fits, the second overflows
# until the first is summarized.
FIRST_QUESTION = ('Plan a three-day walk through Lisbon. '
                  + 'I like old streets, tiled houses, small cafes and river views. ' * 12)
FIRST_REPLY = ('Day one: Alfama and the castle. '
               + 'Walk down to the river, then take the tram up to Graca for the view. ' * 5)
SECOND_QUESTION = ('What about day two? I would rather avoid steep hills and long queues, '
                   'and I want to be near the water in the evening. ') * 2
SUMMARY = 'The user is planning a gentle three-day walk through Lisbon.'
SECOND_REPLY = 'Day two: Belem along the river, with the monastery and an evening by the water.'
CHAT_SCRIPT = {'models': {'tiny': [
    {'text': FIRST_REPLY, 'chunk_chars': 20, 'delay': 0.05},
    SUMMARY,            # the compactor's models.infer
    SECOND_REPLY,
    {'status': 503, 'body': {'error': {'message': 'overloaded'}}},
    'Still here.',
]}}


def test_chat_two_turns_with_a_compaction_and_a_failed_turn_that_loses_only_itself(page, workshop, shot):
    served = workshop({}, CHAT_SCRIPT, '--model-context', 'tiny=400')
    page.goto(served.url)
    page.locator('#tab-chat').click()
    page.locator('#chat-model').fill('tiny')
    page.locator('#chat-start').click()
    expect(page.locator('#chat-state')).to_have_text('Your turn')
    text = page.locator('#chat-text')
    text.fill(FIRST_QUESTION)
    text.press('Enter')
    expect(page.locator('.bubble.assistant.streaming')).to_be_visible()
    expect(page.locator('.bubble.assistant')).to_have_text([FIRST_REPLY])
    expect(page.locator('#chat-state')).to_have_text('Your turn')
    page.reload()       # the chat and its view come back as they were
    expect(page.locator('.bubble')).to_have_text([FIRST_QUESTION, FIRST_REPLY])
    expect(page.locator('#chat-state')).to_have_text('Your turn')

    text.fill(SECOND_QUESTION)
    page.locator('#chat-send').click()
    expect(page.locator('.bubble.note')).to_have_text(
        'Older turns were summarized to fit the context window (3 → 2 records).')
    expect(page.locator('.bubble.assistant')).to_have_text([FIRST_REPLY, SECOND_REPLY])
    expect(page.locator('#chat-state')).to_have_text('Your turn')
    shot(page, 'chat')

    text.fill('And day three?')
    text.press('Enter')
    expect(page.locator('.bubble.error')).to_contain_text('This turn failed and was dropped:')
    expect(page.locator('#chat-state')).to_have_text('Your turn')
    text.fill('Are you there?')
    text.press('Enter')
    expect(page.locator('.bubble.assistant')).to_have_text([FIRST_REPLY, SECOND_REPLY, 'Still here.'])

    # The summary and the turn after it are adjacent user records: they go out merged.
    sent = served.gateway.requests[-1].json['messages']
    assert [message['content'] for message in sent] == [
        'Summary of the earlier conversation: %s\n\n%s' % (SUMMARY, SECOND_QUESTION), SECOND_REPLY, 'Are you there?']
