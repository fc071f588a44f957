"""The Prompts view in a real browser: the tree, the editor with line
numbers, diagnostics as you type and on save, save conflicts, drafts that
survive a reload."""
from __future__ import annotations

from pathlib import Path

import pytest

expect = pytest.importorskip('playwright.sync_api', reason='the Workshop browser tests need playwright').expect

EXAMPLES = Path(__file__).parents[3] / 'examples'
WORD_STATS = (EXAMPLES / 'word-stats.md').read_text(encoding='utf-8')


def test_the_tree_lists_prompts_and_a_diagnostic_follows_the_typing(page, workshop, open_prompt, shot):
    served = workshop({'word-stats.md': WORD_STATS, 'notes/other.md': WORD_STATS.replace('word-stats', 'other')})
    (served.root / 'notes' / 'replies.yaml').write_text('[]\n')
    open_prompt(served, 'word-stats.md')
    expect(page.locator('#file-tree a')).to_have_text(['notes/other.md', 'word-stats.md'])
    expect(page.locator('#diagnostic')).to_have_text('No problems: the prompt parses and can run.')
    expect(page.locator('#gutter')).to_contain_text('\n30\n')
    shot(page, 'prompts')

    code = page.locator('#code')
    broken = WORD_STATS.replace('```lua\nif args.top', '```lua extra\nif args.top', 1)
    code.fill(broken)
    diagnostic = page.locator('#diagnostic.error')
    expect(diagnostic.locator('.diagnostic-code')).to_have_text('parse_fence')
    expect(diagnostic.locator('.diagnostic-message')).to_have_text(
        'line 20: unrecognized fence label `lua extra`; the only Lua fence label is `lua`')
    mark = page.locator('#line-mark')
    expect(mark).to_be_visible()
    diagnostic.click()      # goes to the line
    expect(mark).to_be_in_viewport()
    # The mark sits on line 20 of the text, wherever the editor is scrolled.
    assert page.evaluate("parseFloat(document.getElementById('line-mark').style.top)"
                         " + document.getElementById('code').scrollTop") == 8 + 19 * 20
    shot(page, 'diagnostic')

    code.fill(WORD_STATS)
    expect(page.locator('#diagnostic')).to_have_text('No problems: the prompt parses and can run.')
    expect(mark).to_be_hidden()


def test_saving_reports_the_diagnostic_and_never_clobbers_a_file_changed_on_disk(page, workshop, open_prompt, shot):
    served = workshop({'word-stats.md': WORD_STATS})
    open_prompt(served, 'word-stats.md')
    code = page.locator('#code')
    unclosed = WORD_STATS.replace('\nend\n```\n', '\nend\n  ```\n', 1)
    code.fill(unclosed)
    page.locator('#save').click()
    expect(page.locator('#save-state')).to_have_text('saved')
    assert (served.root / 'word-stats.md').read_text() == unclosed
    expect(page.locator('#diagnostic .diagnostic-message')).to_have_text(
        'line 24: `lua` fence closing line must be exactly ```')

    on_disk = WORD_STATS.replace('Word stats', 'Word counts')
    (served.root / 'word-stats.md').write_text(on_disk)
    code.fill(WORD_STATS + '\nmine\n')
    page.locator('#save').click()
    conflict = page.locator('#conflict')
    expect(conflict).to_be_visible()
    expect(page.locator('#conflict-disk')).to_contain_text('# Word counts')
    expect(page.locator('#conflict-mine')).to_contain_text('mine')
    assert (served.root / 'word-stats.md').read_text() == on_disk
    shot(page, 'conflict')

    page.locator('#keep-mine').click()
    expect(conflict).to_be_hidden()
    expect(page.locator('#save-state')).to_have_text('saved')
    assert (served.root / 'word-stats.md').read_text() == WORD_STATS + '\nmine\n'


def test_unsaved_edits_survive_a_reload(page, workshop, open_prompt):
    served = workshop({'word-stats.md': WORD_STATS})
    open_prompt(served, 'word-stats.md')
    page.locator('#code').fill(WORD_STATS + '\nan unsaved line\n')
    page.locator('#code').press('Tab')      # indents, and stays in the editor
    expect(page.locator('#save-state')).to_have_text('unsaved changes')
    page.reload()
    expect(page.locator('#file-name')).to_have_text('word-stats.md')
    expect(page.locator('#code')).to_have_value(WORD_STATS + '\nan unsaved line\n  ')
    expect(page.locator('#save-state')).to_have_text('unsaved changes')
    assert (served.root / 'word-stats.md').read_text() == WORD_STATS
