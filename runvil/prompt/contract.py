"""The prompt contract: which frontmatter keys exist and what each accepts.

Keys and values are checked in the order they are written and the first
refusal is reported, pointing at the offending key or value.  Every refusal
message starts with ``invalid frontmatter:``.
"""
from __future__ import annotations

import difflib
import re

from .errors import frontmatter_error
from .model import Frontmatter, InputSpec, ModelRole, PromptArg, RunvilVersion
from .yamltree import YNode

MAX_TOOL_ITERATIONS_RANGE = (1, 1000)
MODEL_KEYWORDS = ('json', 'reasoning', 'tools', 'vision')
ARG_TYPES = ('boolean', 'integer', 'number', 'string')

ALIAS_GRAMMAR = '[A-Za-z][A-Za-z0-9_-]{0,63}'
ARG_NAME_GRAMMAR = '[A-Za-z_][A-Za-z0-9_]{0,63}'
_ALIAS = re.compile(ALIAS_GRAMMAR)
_ARG_NAME = re.compile(ARG_NAME_GRAMMAR)
_PACK_PART = '[a-z][a-z0-9_-]{0,63}'
_PACK_ID = re.compile(_PACK_PART)
_VENDOR_NAME = re.compile('%s/%s' % (_PACK_PART, _PACK_PART))
_VERSION = re.compile(r'([0-9]+)(?:\.[0-9]+){0,2}')


class _Refusal(Exception):
    """A contract check failed at ``node``; turned into a ParseError once."""

    def __init__(self, message: str, node: YNode | None):
        super().__init__(message)
        self.message = message
        self.node = node


def validate(root: YNode | None) -> Frontmatter:
    """The Frontmatter for a decoded document, or a Frontmatter ParseError."""
    try:
        return _frontmatter(root)
    except _Refusal as refusal:
        node = refusal.node
        raise frontmatter_error('invalid frontmatter: ' + refusal.message,
                                node.line if node else None, node.column if node else None) from None


def check_unique_packs(frontmatter: Frontmatter) -> None:
    """Runs after decoding, on values alone, so it reports no position."""
    seen = set()
    for pack in frontmatter.uses:
        if pack in seen:
            raise frontmatter_error(
                'invalid frontmatter: Pack id %s is declared more than once under uses' % pack)
        seen.add(pack)


def _frontmatter(root: YNode | None) -> Frontmatter:
    if root is None:
        raise _Refusal('the frontmatter is empty; it needs at least a name key', None)
    if root.kind != 'map':
        raise _Refusal('the frontmatter must be a mapping of keys to values, got %s' % root.shown(), root)
    values = {}
    for key, value in root.value:
        name = key.raw if key.kind == 'str' else key.shown()
        check = _KEYS.get(name)
        if check is None:
            raise _Refusal(_unknown('frontmatter key `%s`' % name, name, _KEYS), key)
        values[name] = check(value)
    if 'name' not in values:
        raise _Refusal('the frontmatter is missing the required key `name`', None)
    return Frontmatter(**values)


def _unknown(subject: str, name: str, known) -> str:
    message = 'unknown %s; expected one of: %s' % (subject, ', '.join(sorted(known)))
    close = difflib.get_close_matches(name, list(known), n=1)
    if close:
        message += ' (did you mean `%s`?)' % close[0]
    return message


def _fields(node: YNode, what: str, known) -> dict[str, YNode]:
    """The fields of a mapping entry, refusing any field not in ``known``."""
    found = {}
    for key, value in node.value:
        name = key.raw if key.kind == 'str' else key.shown()
        if name not in known:
            raise _Refusal(_unknown('field `%s` in %s' % (name, what), name, known), key)
        found[name] = value
    return found


def _string(node: YNode, what: str, *, empty_ok: bool = False) -> str:
    if node.kind != 'str' or (not empty_ok and not node.value.strip()):
        raise _Refusal('%s must be a %sstring, got %s' % (what, '' if empty_ok else 'non-empty ', node.shown()), node)
    return node.value


def _name(node: YNode) -> str:
    name = _string(node, 'name')
    if '\n' in name or name != name.strip():
        raise _Refusal('name must be a single line without surrounding spaces, got %r' % name, node)
    return name


def _description(node: YNode) -> str:
    return _string(node, 'description', empty_ok=True)


def _runvil(node: YNode) -> RunvilVersion:
    match = _VERSION.fullmatch(node.raw) if node.kind in ('int', 'float', 'str') else None
    if match is None:
        raise _Refusal('runvil must be a version number such as 0, got %s' % (node.shown()), node)
    return RunvilVersion(node.raw, int(match.group(1)))


def _max_tool_iterations(node: YNode) -> int:
    low, high = MAX_TOOL_ITERATIONS_RANGE
    if not node.is_bare_int():
        raise _Refusal('max_tool_iterations must be a whole number written as a bare integer, got %s'
                       % (node.shown()), node)
    # Python ints never wrap, so a value past 32 or 64 bits is refused as too large.
    if node.value < low:
        raise _Refusal('max_tool_iterations must be at least %d, got %s' % (low, node.raw), node)
    if node.value > high:
        raise _Refusal('max_tool_iterations must be at most %d, got %s' % (high, node.raw), node)
    return node.value


def _uses(node: YNode) -> tuple[str, ...]:
    if node.kind != 'seq':
        raise _Refusal('uses must be a list of Pack ids, got %s' % (node.shown()), node)
    packs = []
    for entry in node.value:
        text = entry.raw if entry.kind == 'str' else None
        if text is None or not (_PACK_ID.fullmatch(text) or _VENDOR_NAME.fullmatch(text)):
            shown = '`%s`' % entry.raw if entry.kind not in ('map', 'seq') else entry.shown()
            raise _Refusal('uses entry %s is neither a Pack id (such as web) nor a vendor/name '
                           '(such as acme/crm)' % shown, entry)
        packs.append(text)
    return tuple(packs)


def _models(node: YNode) -> tuple[ModelRole, ...]:
    if node.kind != 'map':
        raise _Refusal('models must be a mapping from role labels to role settings, got %s'
                       % (node.shown()), node)
    return tuple(_model_role(key, value) for key, value in node.value)


def _model_role(key: YNode, node: YNode) -> ModelRole:
    label = key.raw
    if key.kind != 'str' or not _ALIAS.fullmatch(label):
        raise _Refusal('invalid model role label "%s": expected %s' % (key.shown(), ALIAS_GRAMMAR), key)
    if node.kind == 'null':  # `writer:` with nothing after it reads as `writer: {}`
        return ModelRole(label)
    what = 'model role `%s`' % label
    if node.kind != 'map':
        raise _Refusal('%s must be a mapping of role settings, got %s' % (what, node.shown()), node)
    settings = {}
    for field, value in _fields(node, what, _ROLE_FIELDS).items():
        settings[field] = _ROLE_FIELDS[field](value, what)
    return ModelRole(label, **settings)


def _role_model(node: YNode, what: str) -> str:
    return _string(node, '%s model' % what)


def _role_min_context(node: YNode, what: str) -> int:
    if node.kind != 'int' or node.value < 1:
        raise _Refusal('%s min_context must be a positive whole number of tokens, got %s'
                       % (what, node.shown()), node)
    return node.value


def _role_keywords(field: str):
    def check(node: YNode, what: str) -> tuple[str, ...]:
        if node.kind != 'seq':
            raise _Refusal('%s %s must be a list of capability keywords, got %s'
                           % (what, field, node.shown()), node)
        for keyword in node.value:
            if keyword.kind != 'str' or keyword.value not in MODEL_KEYWORDS:
                raise _Refusal('unknown model keyword `%s` in %s %s; known keywords: %s'
                               % (keyword.shown(), what, field, ', '.join(MODEL_KEYWORDS)), keyword)
        return tuple(keyword.value for keyword in node.value)
    return check


def _args(node: YNode) -> tuple[PromptArg, ...]:
    if node.kind != 'seq':
        raise _Refusal('args must be a list of argument entries, got %s' % (node.shown()), node)
    args = []
    names = set()
    for entry in node.value:
        arg = _arg(entry)
        if arg.name in names:
            raise _Refusal('arg `%s` is declared more than once under args' % arg.name, entry)
        names.add(arg.name)
        args.append(arg)
    return tuple(args)


def _arg(entry: YNode) -> PromptArg:
    if entry.kind != 'map':
        raise _Refusal('args entry must be a mapping with a name field, got %s' % (entry.shown()), entry)
    fields = _fields(entry, 'args entry', ('name', 'type', 'default', 'description'))
    if 'name' not in fields:
        raise _Refusal('args entry has no name field', entry)
    name_node = fields['name']
    if name_node.kind != 'str' or not _ARG_NAME.fullmatch(name_node.raw):
        raise _Refusal('invalid arg name "%s": expected %s' % (name_node.shown(), ARG_NAME_GRAMMAR), name_node)
    name = name_node.raw
    arg_type = 'string'
    if 'type' in fields:
        type_node = fields['type']
        if type_node.kind != 'str' or type_node.value not in ARG_TYPES:
            raise _Refusal('arg `%s` has unknown type `%s`; known types: %s'
                           % (name, type_node.shown(), ', '.join(ARG_TYPES)), type_node)
        arg_type = type_node.value
    description = _string(fields['description'], 'arg `%s` description' % name, empty_ok=True) \
        if 'description' in fields else None
    if 'default' not in fields:
        return PromptArg(name, arg_type, description=description)
    default = fields['default']
    if not _ARG_VALUE_KINDS[arg_type](default):
        raise _Refusal('arg `%s` default %s is not %s' % (name, default.shown(), _ARG_TYPE_NAMES[arg_type]),
                       default)
    return PromptArg(name, arg_type, True, default.value, description)


_ARG_VALUE_KINDS = {
    'string': lambda node: node.kind == 'str',
    'integer': lambda node: node.kind == 'int',
    'number': lambda node: node.kind in ('int', 'float'),
    'boolean': lambda node: node.kind == 'bool',
}
_ARG_TYPE_NAMES = {'string': 'a string', 'integer': 'an integer', 'number': 'a number',
                   'boolean': 'a boolean'}


def _input(node: YNode) -> InputSpec:
    if node.kind != 'map':
        raise _Refusal('input must be a mapping with description and required fields, got %s'
                       % (node.shown()), node)
    fields = _fields(node, 'input', ('description', 'required'))
    description = _string(fields['description'], 'input description', empty_ok=True) \
        if 'description' in fields else None
    required = True
    if 'required' in fields:
        if fields['required'].kind != 'bool':
            raise _Refusal('input required must be true or false, got %s' % (fields['required'].shown()),
                           fields['required'])
        required = fields['required'].value
    return InputSpec(description, required)


_KEYS = {
    'name': _name,
    'description': _description,
    'runvil': _runvil,
    'max_tool_iterations': _max_tool_iterations,
    'uses': _uses,
    'models': _models,
    'args': _args,
    'input': _input,
}

_ROLE_FIELDS = {
    'model': _role_model,
    'min_context': _role_min_context,
    'requires': _role_keywords('requires'),
    'prefers': _role_keywords('prefers'),
}
