"""Runs in a real browser: the form from the frontmatter, live events
(sections, log checkpoints, model rounds, tool calls, the messages list),
the result or the run error, input.ask answered in the page, cancel and
stop."""
from __future__ import annotations

from pathlib import Path

import pytest

expect = pytest.importorskip('playwright.sync_api', reason='the Workshop browser tests need playwright').expect

EXAMPLES = Path(__file__).parents[3] / 'examples'
RESEARCH = (EXAMPLES / 'research-person.md').read_text(encoding='utf-8')
RESEARCH_REPLIES = str(EXAMPLES / 'research-person.replies.yaml')


def prompt(name: str, lua: str, head: str = '') -> str:
    return ('---\nname: %s\ndescription: A Workshop test prompt.\nrunvil: 0\n%s---\n\n# %s\n\n## Main\n\n'
            '```lua\n%s\n```\n' % (name, head, name.title(), lua))


ASKING = prompt('asking', "local name = input.ask('What is your name?')\nlog('asked')\n"
                          "return input.text .. ', ' .. name", 'input:\n  description: How to greet.\n')
SPINNER = prompt('spinner', "log('spinning')\nwhile true do end")
PATIENT = prompt('patient', "models.use('writer')\nlocal ok, out = pcall(models.infer, 'Draft the summary.')\n"
                            "if not ok and out.kind == 'cancelled' then\n  return 'stopped'\nend\nreturn out",
                 'models:\n  writer: {}\n')
FANOUT = (EXAMPLES / 'fanout-stats.md').read_text(encoding='utf-8')
ROUNDS = prompt('rounds', "models.use('writer')\nmessages:user('Say hello.')\nmodels.loop()\n"
                          "messages:user(string.rep('x', 40000))\nlocal ok, err = pcall(models.loop)\n"
                          "return messages[2].content .. ' / ' .. err.kind",
                'models:\n  writer: {}\n')
FAILING = prompt('failing', "local words = {}\n\nerror('no words to count')")


def test_a_run_shows_its_tool_rounds_messages_and_result(page, workshop, open_prompt, shot):
    served = workshop({'research-person.md': RESEARCH}, RESEARCH_REPLIES)
    open_prompt(served, 'research-person.md')
    expect(page.locator('#form-args input[name="arg:person"]')).to_have_value('Ada Lovelace')
    page.locator('#run').click()
    run = page.locator('#run-view')
    expect(run.locator('.badge')).to_have_text('completed')
    expect(run.locator('.result-text')).to_have_text(
        'Ada Lovelace was an English mathematician who wrote the first published algorithm meant for a machine.')
    sections = run.locator('.entry.section')
    expect(sections).to_have_text(['H1 pass', '§ Research', '§ Summary'])
    expect(run.locator('.entry.log')).to_contain_text(['Researchresearched in 6 records'])
    calls = run.locator('.tool-call')
    expect(calls).to_have_count(2)
    expect(calls.nth(0).locator('.tool-name')).to_have_text('web_search')
    expect(calls.nth(0).locator('.tool-args')).to_contain_text('"query": "Ada Lovelace"')
    expect(calls.nth(0).locator('.tool-state')).to_have_text('done')
    expect(calls.nth(0).locator('.tool-result')).to_contain_text('Ada Lovelace')
    expect(run.locator('.round-usage').first).to_contain_text('finish: tool_calls')
    research = run.locator('.conversation').nth(0)
    expect(research.locator('summary')).to_have_text('Research · 6 records')
    expect(research.locator('.record-role')).to_have_text(['user', 'assistant', 'tool', 'assistant', 'tool',
                                                          'assistant'])
    expect(research.locator('.record-call .call-name').first).to_have_text('web_search')
    expect(research.locator('.record.role-tool .record-tag').first).to_have_text('result of call_1')
    shot(page, 'run')


def test_the_operator_answers_a_question_in_the_page_even_after_a_reload(page, workshop, open_prompt, shot):
    served = workshop({'asking.md': ASKING})
    open_prompt(served, 'asking.md')
    expect(page.locator('#form-input small')).to_have_text('How to greet.')
    page.locator('#form-input textarea').fill('hello')
    page.locator('#run').click()
    question = page.locator('#run-view .question')
    expect(question.locator('.question-text')).to_have_text('What is your name?')
    shot(page, 'question')
    page.reload()       # the page follows the run again, the question still open
    expect(question.locator('.question-text')).to_have_text('What is your name?')
    question.locator('input').fill('Ada')
    question.locator('button').click()
    expect(page.locator('#run-view .result-text')).to_have_text('hello, Ada')
    expect(question).to_have_count(0)
    expect(page.locator('#run-view .entry.answer-entry')).to_have_text('Answered: Ada')


def test_cancel_ends_a_spinning_run_cancelled(page, workshop, run_prompt):
    served = workshop({'spinner.md': SPINNER})
    run = run_prompt(served, 'spinner.md')
    expect(run.locator('.entry.log')).to_contain_text(['spinning'])
    expect(run.locator('.badge')).to_have_text('running')
    run.locator('.cancel-run').click()
    expect(run.locator('.badge')).to_have_text('cancelled')
    expect(run.locator('.outcome')).to_have_text('Cancelled')


def test_stop_round_interrupts_the_round_in_flight_and_the_run_goes_on(page, workshop, run_prompt):
    served = workshop({'patient.md': PATIENT}, [{'text': 'too late', 'headers_delay': 30}])
    run = run_prompt(served, 'patient.md')
    expect(run.locator('.round-usage')).to_have_text('waiting for the model…')
    run.locator('.stop-round').click()
    expect(run.locator('.result-text')).to_have_text('stopped')
    expect(run.locator('.badge')).to_have_text('completed')


def test_tasks_show_as_a_tree_with_their_status(page, workshop, run_prompt):
    served = workshop({'fanout-stats.md': FANOUT})
    run = run_prompt(served, 'fanout-stats.md')
    expect(run.locator('.badge')).to_have_text('completed')
    tasks = run.locator('.task-tree > .task')
    expect(tasks.locator('.task-id')).to_have_text(['0.0', '0.1', '0.2'])
    expect(tasks.locator('.task-section')).to_have_text(['Count', 'Count', 'Count'])
    expect(tasks.locator('.task-state')).to_have_text(['completed', 'completed', 'completed'])


def test_a_round_streams_its_text_and_usage_and_the_precheck_refusal_shows(page, workshop, run_prompt, shot):
    reply = {'text': 'Hello there, from a streamed reply.', 'chunk_chars': 4, 'delay': 0.1,
             'usage': {'prompt_tokens': 9, 'completion_tokens': 7}}
    served = workshop({'rounds.md': ROUNDS}, [reply], '--model-context', 'default=4096')
    run = run_prompt(served, 'rounds.md')
    expect(run.locator('.round-text.streaming')).to_contain_text('Hel')
    expect(run.locator('.result-text')).to_have_text('Hello there, from a streamed reply. / context_exhausted')
    expect(run.locator('.round-text')).to_have_text('Hello there, from a streamed reply.')
    expect(run.locator('.round-usage')).to_have_text('9 prompt · 7 completion tokens · finish: stop')
    expect(run.locator('.entry.precheck')).to_contain_text('Context precheck refused a round')
    shot(page, 'rounds')


def selected_text(page) -> str:
    return page.evaluate("(() => { const code = document.getElementById('code');"
                         " return code.value.slice(code.selectionStart, code.selectionEnd); })()")


def test_a_run_error_shows_its_kind_message_and_links_to_its_line(page, workshop, run_prompt, shot):
    served = workshop({'failing.md': FAILING})
    outcome = run_prompt(served, 'failing.md').locator('.outcome.failed')
    expect(outcome.locator('.error-kind')).to_have_text('Lua')
    expect(outcome.locator('.error-message')).to_have_text('failing:14: no words to count')
    link = outcome.locator('.error-location .line-link')
    expect(link).to_have_text('line 14')
    shot(page, 'run-error')
    link.click()
    assert selected_text(page) == "error('no words to count')"

    # The editor's text runs as it stands: a parse failure carries its location.
    page.locator('#code').fill(FAILING.replace('```lua', '```lua extra'))
    page.locator('#run').click()
    expect(outcome.locator('.error-kind')).to_have_text('parse_fence')
    expect(outcome.locator('.error-message')).to_have_text(
        'line 11: unrecognized fence label `lua extra`; the only Lua fence label is `lua`')
    expect(outcome.locator('.error-location')).to_have_text('failing.md line 11:1')
    page.locator('#code').press('Control+Home')
    outcome.locator('.error-location .line-link').click()
    assert selected_text(page) == '```lua extra'
