"""The Harness settings a Host user gives: run limits from a TOML config
file (``[limits]``) and from flags, flags winning.  The same file's
``[models]`` table is read by ``model_settings``; ``[packs] modules``
lists the Pack modules to load, before the ``--pack`` flags'.  Sizes take a byte count
or a binary suffix: ``4194304``, ``4096KiB``, ``4MiB``, ``1GiB``."""
from __future__ import annotations

import re

from ..harness.limits import LIMIT_NAMES, RunLimits

SIZE_LIMITS = ('response_cap', 'memory_ceiling')
TABLES = ('limits', 'models', 'packs')
_SIZE = re.compile(r'\s*([0-9]+)\s*(B|KiB|MiB|GiB)?\s*\Z')
_UNITS = {None: 1, 'B': 1, 'KiB': 1 << 10, 'MiB': 1 << 20, 'GiB': 1 << 30}


class SettingsError(Exception):
    """A setting the Host cannot use; reported before any run starts."""


def parse_size(text: str) -> int:
    match = _SIZE.match(text)
    if match is None:
        raise ValueError('expected a byte count such as 4194304 or 4MiB, got %r' % text)
    return int(match.group(1)) * _UNITS[match.group(2)]


def read_document(path: str) -> dict:
    """A TOML config file, its top-level tables checked: ``[limits]`` and
    ``[models]`` (model settings: docs/models.md)."""
    import tomllib
    try:
        with open(path, 'rb') as handle:
            document = tomllib.load(handle)
    except OSError as err:
        raise SettingsError('cannot read config %s: %s' % (path, err.strerror or err)) from None
    except tomllib.TOMLDecodeError as err:
        raise SettingsError('config %s is not valid TOML: %s' % (path, err)) from None
    except RecursionError:     # tomllib parses nested arrays and tables recursively
        raise SettingsError('config %s is not valid TOML: nested too deeply' % path) from None
    unknown = sorted(set(document) - set(TABLES))
    if unknown:
        raise SettingsError('config %s: unknown table or key `%s`; expected [limits], [models] or [packs]'
                            % (path, unknown[0]))
    for name in TABLES:
        if not isinstance(document.get(name, {}), dict):
            raise SettingsError('config %s: %s must be a table' % (path, name))
    return document


def read_config(path: str) -> dict:
    """The ``[limits]`` table of a TOML config file, values checked."""
    values = {}
    for name, value in read_document(path).get('limits', {}).items():
        if name not in LIMIT_NAMES:
            raise SettingsError('config %s: unknown limit `%s`; expected one of: %s'
                                % (path, name, ', '.join(LIMIT_NAMES)))
        if name in SIZE_LIMITS and isinstance(value, str):
            try:
                value = parse_size(value)
            except ValueError as err:
                raise SettingsError('config %s: %s: %s' % (path, name, err)) from None
        values[name] = value
    return values


def pack_modules(config_path: str | None, flags: list[str]) -> list[str]:
    """The Pack modules to load: the config's ``[packs] modules``, then the flags'."""
    table = read_document(config_path).get('packs', {}) if config_path else {}
    unknown = sorted(set(table) - {'modules'})
    if unknown:
        raise SettingsError('config %s: packs: unknown key `%s`; expected modules' % (config_path, unknown[0]))
    modules = table.get('modules', [])
    if not isinstance(modules, list) or not all(isinstance(name, str) for name in modules):
        raise SettingsError('config %s: packs.modules must be a list of module names' % config_path)
    return modules + list(flags)


def build_limits(config_path: str | None, flags: dict) -> RunLimits:
    """Limits from the config file (if any), then the flags that were given."""
    values = read_config(config_path) if config_path else {}
    values.update({name: value for name, value in flags.items() if value is not None})
    try:
        return RunLimits(**values)
    except ValueError as err:
        raise SettingsError(str(err)) from None
