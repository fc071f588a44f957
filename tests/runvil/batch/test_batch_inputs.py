"""Reading a batch's inputs: JSON lines and CSV, bad lines with their line
numbers, never fatal."""
from batch_helpers import write_lines

from runvil.batch.inputs import BadLine, read_inputs
from runvil.batch.records import BatchInput


def test_json_lines_ids_inputs_args_and_the_line_number_as_default_id(tmp_path):
    path = write_lines(tmp_path, [
        {'id': 'a', 'input': 'first', 'args': {'n': 3, 'flag': True, 'name': 'x', 'ratio': 0.5}},
        '',
        {'input': 'no id here'},
        {'id': 7, 'expected': 'a field of the dataset, left alone'},
    ])
    inputs = read_inputs(path)
    assert inputs.bad == []
    assert inputs.runs == [
        BatchInput('a', 'first', {'n': '3', 'flag': 'true', 'name': 'x', 'ratio': '0.5'}, 1),
        BatchInput(3, 'no id here', {}, 3),
        BatchInput(7, None, {}, 4),
    ]


def test_bad_json_lines_are_reported_by_line_and_skipped(tmp_path):
    path = write_lines(tmp_path, [
        {'id': 'ok', 'input': 'fine'},
        '{"id": "broken", "input": ',
        '[1, 2]',
        {'id': ['x'], 'input': 'list id'},
        {'id': 'n', 'input': 5},
        {'id': 'a', 'args': {'deep': {'x': 1}}},
        {'id': 'b', 'args': ['x']},
        {'id': 'ok', 'input': 'again'},
        {'id': 'last', 'input': 'still read'},
    ])
    inputs = read_inputs(path)
    assert [run.id for run in inputs.runs] == ['ok', 'last']
    assert [(bad.line, bad.message) for bad in inputs.bad] == [
        (2, 'not JSON: Expecting value: line 1 column 27 (char 26)'),
        (3, 'a line must be a JSON object, got list'),
        (4, 'id must be a string or an integer, got ["x"]'),
        (5, 'input must be a string or null, got 5'),
        (6, 'args.deep must be a string, a number or a boolean, got {"x": 1}'),
        (7, 'args must be an object of arg names to values, got ["x"]'),
        (8, 'duplicate id "ok" (first on line 1)'),
    ]


def test_a_line_that_is_not_utf8_is_one_bad_line(tmp_path):
    path = tmp_path / 'inputs.jsonl'
    path.write_bytes(b'{"input": "one"}\n{"input": "\xff"}\n{"input": "three"}\n')
    inputs = read_inputs(str(path))
    assert [run.id for run in inputs.runs] == [1, 3]
    assert inputs.bad == [BadLine(2, 'not UTF-8 text (byte 12 of the line)')]


def test_csv_columns_id_input_and_args_by_header(tmp_path):
    path = write_lines(tmp_path, [
        'id,input,model',
        'a,"text, with a comma",m1',
        ',"a quoted',
        'line break",',
        'b,short',
        'c,fine,m2',
    ], name='inputs.csv')
    inputs = read_inputs(path)
    assert inputs.runs == [BatchInput('a', 'text, with a comma', {'model': 'm1'}, 2),
                           BatchInput(3, 'a quoted\nline break', {}, 3),
                           BatchInput('c', 'fine', {'model': 'm2'}, 6)]
    assert inputs.bad == [BadLine(5, 'expected 3 fields as in the header, got 2')]


def test_a_csv_record_that_is_not_utf8_is_one_bad_line(tmp_path):
    path = tmp_path / 'inputs.csv'
    path.write_bytes(b'\xef\xbb\xbfid,input\na,one\nb,t\xffo\nc,three\n')
    inputs = read_inputs(str(path))
    assert [run.id for run in inputs.runs] == ['a', 'c']
    assert inputs.bad == [BadLine(3, 'not UTF-8 text (byte 2 of a field)')]
