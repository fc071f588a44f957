"""The walk: sections in order, fresh VMs, returns and the run result."""
from engine_helpers import block, failure, prompt, result, run, section


def test_a_returning_block_ends_its_section_and_its_value_is_the_result():
    body = section('S', "x = 1", "return 'first'", "error('never runs')")
    assert result(body) == 'first'


def test_the_last_returning_section_gives_the_result_and_later_sections_still_run():
    body = (section('A', "return 'a'") + section('B', "var.ran = true")
            + section('C', "return var.ran and 'c' or 'no'"))
    assert result(body) == 'c'
    assert result(section('A', "return 'a'") + section('B', "return nil")) == 'a'


def test_no_returning_section_gives_the_empty_string():
    assert result(section('A', 'local x = 1') + '## Prose only\n\nJust words.\n') == ''


def test_numbers_are_results_as_tostring_shows_them():
    assert result(section('A', 'return 8000000')) == '8000000'
    assert result(section('A', 'return 0.5')) == '0.5'
    assert result(section('A', 'return 2^53')) == '9.007199254741e+15'


def test_a_table_result_fails_the_run_as_lua():
    error = failure(section('A', 'return {1, 2}'))
    assert error['kind'] == 'Lua' and 'cannot return a table as a result' in error['message']
    assert failure(section('A', 'return true'))['message'].startswith('cannot return a boolean as a result')


def test_only_the_final_result_is_converted():
    assert result(section('A', 'return {1}') + section('B', "return 'text'")) == 'text'


def test_sections_run_in_document_order_parents_before_children():
    body = ('## A\n\n' + block("var.order = 'A'") + '\n### A1\n\n' + block("var.order = var.order .. ',A1'")
            + '\n## B\n\n' + block("return var.order .. ',B'"))
    assert result(body) == 'A,A1,B'


def test_every_section_entry_gets_a_fresh_vm_with_fresh_globals():
    body = section('A', "g = 'set'", "return type(g)") + section('B', "return type(g)")
    assert result(body) == 'nil'
    assert result(section('A', "g = 1", "return g + 1")) == '2'


def test_the_h1_pass_runs_before_the_walk_and_its_returns_are_discarded():
    body = block("var.h1 = 'from h1'\nreturn 'ignored'") + '\n' + section('S', "return var.h1")
    assert result(body) == 'from h1'


def test_runtime_errors_name_the_prompt_and_the_file_line():
    error = failure(section('S', "local x = 1\nerror('boom')"))
    # frontmatter 5 lines, blank, H1, blank, heading, blank, fence: the error is on line 13
    assert error == {'kind': 'Lua', 'message': 't:13: boom', 'retryable': False, 'location': None}


def test_print_is_not_there_log_is():
    assert "global 'print'" in failure(section('S', "print('x')"))['message']


def test_sections_without_lua_build_no_vm_but_report_events():
    events = []
    run(prompt('## Words\n\nOnly prose.\n\n## Items\n\n- one\n- two\n'), events=events)
    kinds = [(e['event'], e.get('section')) for e in events if e['event'].startswith('section')]
    assert kinds == [('section_started', 'Words'), ('section_finished', 'Words'),
                     ('section_started', 'Items'), ('section_finished', 'Items')]


def test_events_carry_the_execution_id_and_a_sequence():
    events = []
    run(prompt(section('S', "log('here')", "return 1")), events=events)
    assert len({e['execution_id'] for e in events}) == 1
    assert [e['seq'] for e in events] == list(range(1, len(events) + 1))
    names = [e['event'] for e in events]
    assert names == ['run_started', 'prepared', 'section_started', 'log', 'section_finished', 'run_finished']
    assert events[3]['section'] == 'S' and events[3]['message'] == 'here'
    assert events[-1]['outcome'] == 'completed' and events[-1]['result'] == '1'
