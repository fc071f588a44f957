"""Lua strings that are not UTF-8 (the bytes ``\\255\\254``) at the Engine's
globals: shown as U+FFFD where a global reports or passes text on, refused
with the global's own message where it needs UTF-8 text, and kept as bytes
where Lua keeps them."""
import pytest

from engine_helpers import prompt, run, section
from runvil.harness import EventStream, Harness, RunLimits
from runvil.harness.store_answerer import DirectoryStore
from runvil.vocabulary.crossing import BYTES, TEXT, VALUE, Utf8
from runvil.vocabulary.failure import Failure
from runvil.vocabulary.functions import Signature

ROLE = 'models:\n  writer: {}\n'
SHOWN = '\ufffd\ufffd'      # \255\254 as text
UTF8_SHOWN = '\\239\\191\\189'   # U+FFFD as a Lua string's bytes


def result(body: str) -> str:
    outcome = run(prompt(body, head=ROLE))
    assert outcome.status == 'completed', outcome.to_dict()
    return outcome.result


def caught(call: str) -> str:
    """The message of the error value ``call`` raises."""
    return result(section('S', 'local ok, e = pcall(function() %s end)\nreturn e.message' % call))


@pytest.mark.parametrize('call, message', [
    ("tools.offer_local('\\255\\254', 'd', {}, function() end)",
     'tools.offer_local: a tool name is 1 to 64 letters, digits, _ or -, got "%s"' % SHOWN),
    ("tools.offer('p\\255/t')", 'tools.offer: a Pack tool is named pack/tool, got "p\ufffd/t"'),
    ("packs.offer('p\\255')", 'packs.offer: Pack `p\ufffd` is not declared under uses: in the frontmatter'),
    ("tools.call('\\255\\254')", 'tools.call: no local tool and no tool of a declared Pack is named `%s`' % SHOWN),
    ("tools.offer_tasks('S', '\\255\\254')", 'section heading `%s` not found; available sections: ## S' % SHOWN),
    ("require('\\255\\254')",
     "require: a module name is dot-separated parts of letters, digits and _, got '%s'" % SHOWN),
    ("call('\\255\\254')", 'section heading `%s` not found; available sections: ## S' % SHOWN),
    ("tasks.spawn('\\255\\254')", 'section heading `%s` not found; available sections: ## S' % SHOWN),
    ("tasks.fanout('\\255\\254', {})", 'section heading `%s` not found; available sections: ## S' % SHOWN),
    ("models.use('\\255\\254')", 'invalid alias "%s": expected [A-Za-z][A-Za-z0-9_-]{0,63}' % SHOWN),
    ("models.use('writer', {['\\255'] = 1})",
     'unknown model option `\ufffd`; known options: frequency_penalty, max_tokens, presence_penalty, seed, stop, '
     'temperature, thinking, top_p'),
    ("models.use('writer', {thinking = '\\255'})",
     'model option `thinking` must be true, false, \'low\', \'medium\' or \'high\', got "\ufffd"'),
    ("var['\\255\\254'] = 1", 'var keys must be UTF-8 text'),
    ("var.k = '\\255\\254'", 'var.k must be JSON data, got a string that is not valid UTF-8'),
    ("json.decode('\"\\255\\254\"')", 'json.decode: text is not valid UTF-8'),
    ("json.encode('\\255\\254')", 'json.encode: value must be JSON data, got a string that is not valid UTF-8'),
    ("log('\\255\\254')", 'log message must be UTF-8 text without control characters'),
    ("store.read('\\255\\254')", 'this run declares no store, so no store operation can run'),
])
def test_globals_show_or_refuse_bytes_that_are_not_utf8(call, message):
    assert caught(call) == message


def test_text_the_engine_hands_back_is_utf8_bytes():
    # A raw model id reaches the handle as text, and comes back as U+FFFD's bytes.
    handle = "local h = models.get('\\255\\254') return #h.model .. ' ' .. tostring(h.model == '%s')" \
        % (UTF8_SHOWN * 2)
    assert result(section('S', handle)) == '6 true'
    fail = ("local ok, e = pcall(compactors.fail, '\\255\\254')\n"
            "return e.kind .. ' ' .. #e.reason .. ' ' .. e.message")
    assert result(section('S', fail)) == 'context_exhausted 6 context exhausted: ' + SHOWN
    assert result(section('S', "return tostring(jump('## X\\255'))")) == 'jump to ## X\ufffd'
    tool = ("tools.offer_local('t', 'd', {}, function() return 'x\\255' end)\n"
            "local got = tools.call('t') return #got .. ' ' .. got")
    assert result(section('S', tool)) == '4 x\ufffd'


def test_bytes_kept_where_lua_keeps_them():
    assert result(section('S', "var['\\255\\254'] = nil return 'removed'")) == 'removed'
    assert result(section('S', "return 'a\\255\\254'")) == 'a' + SHOWN
    outcome = run(prompt(section('S', "error('a\\255\\254', 0)"))).to_dict()
    assert outcome['error']['message'] == 'a' + SHOWN


def test_store_paths_and_texts(tmp_path):
    harness = Harness(RunLimits(), store=DirectoryStore(str(tmp_path)))
    body = section('S', "store.write('a\\255\\254.txt', 'x\\255\\254y')\nlocal r = store.read('a\\255\\254.txt')\n"
                        "local listed = store.list('a\\255')\n"
                        "local ok, e = pcall(store.read, '../\\255')\n"
                        "return #r .. '|' .. r .. '|' .. #listed[1] .. '|' .. e.reason .. '|' .. e.message")
    outcome = harness.run(prompt(body), 't.md', events=EventStream())
    assert outcome.result == ('8|x%sy|11|invalid_path|' % SHOWN
                              + 'invalid store path `../\ufffd`: a path has no empty, . or .. part')
    assert [(p.name, p.read_text()) for p in tmp_path.iterdir()] == [('a%s.txt' % SHOWN, 'x%sy' % SHOWN)]


def test_a_compactors_reason_reaches_it_as_given():
    events = []
    body = section('S', "local got\nmodels.compact(function(reason) got = reason end, '\\255\\254')\n"
                        "return #got .. ' ' .. tostring(got == '\\255\\254')")
    outcome = run(prompt(body), events=events)
    assert outcome.result == '2 true'
    assert [event['reason'] for event in events if event['event'] == 'compaction'] == [SHOWN]


def test_a_signature_converts_the_positions_it_declares_and_strings_only():
    table = object()
    signature = Signature(takes=(TEXT, VALUE), rest=BYTES, gives=(TEXT,))
    assert signature.arguments(('a\xff', '\xfe', '\xc3\xa9', 5, table)) == \
        ('a\ufffd', '\xfe', b'\xc3\xa9', 5, table)
    assert signature.results(('\u00e9', '\u00e9', None)) == ('\xc3\xa9', '\u00e9', None)
    assert Signature(takes=(TEXT,)).arguments(()) == ()
    with pytest.raises(Failure, match='not UTF-8 here'):
        Utf8('not UTF-8 here').take('\xff')
    assert Utf8().take('\xff') is None and Utf8().take('\xc3\xa9') == '\u00e9'
