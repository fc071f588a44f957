"""How the Host binds model roles, and whether a run gets model access.

Bindings come from the config file's ``[models]`` table and from flags,
flags winning (docs/models.md):

    --bind ROLE=MODEL            bind a role label to a gateway model id
    --default-model MODEL        the model of roles nothing binds
    --model-context MODEL=TOKENS a model's context window

    [models]
    default = "qwen/qwen3-8b"
    [models.bind]
    writer = "openai/gpt-4o"
    [models.catalog."openai/gpt-4o"]
    context = 128000
    keywords = ["json", "tools", "vision"]

A binding for a role the prompt does not declare is unused: one config
serves many prompts.

Model access: when ``RUNVIL_GATEWAY_URL`` is set, or the prompt declares
model roles, the gateway environment variables must be valid (else a setup
error, before the run); otherwise model access is off and every round fails
as Unavailable without touching the network.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass

from ..prompt.contract import MODEL_KEYWORDS
from ..vocabulary.environment import DEFAULT_MODEL_ID, UNBOUND_CONTEXT_WINDOW, Environment, ModelBinding
from .settings import SettingsError, read_document

MODEL_KEYS = ('bind', 'catalog', 'default')
CATALOG_KEYS = ('context', 'keywords')
GATEWAY_URL = 'RUNVIL_GATEWAY_URL'


def build_environment(config_path: str | None, binds: list[str], default_model: str | None,
                      contexts: list[str], packs: dict | None = None) -> Environment:
    table = read_document(config_path).get('models', {}) if config_path else {}
    where = 'config %s: models' % config_path
    _known_keys(table, MODEL_KEYS, where)
    catalog = _catalog(table.get('catalog', {}), where + '.catalog')
    for setting in contexts:
        model, tokens = _pair(setting, '--model-context', 'MODEL=TOKENS')
        if not tokens.isdigit() or int(tokens) < 1:
            raise SettingsError('--model-context expects MODEL=TOKENS with TOKENS a whole number '
                                'of at least 1, got %r' % setting)
        known = catalog.get(model, ModelBinding(model))
        catalog[model] = ModelBinding(model, int(tokens), known.keywords)
    bound = dict(_model_ids(table.get('bind', {}), where + '.bind'))
    bound.update(_pair(setting, '--bind', 'ROLE=MODEL') for setting in binds)
    default = default_model or _model_id(table.get('default', DEFAULT_MODEL_ID), where + '.default')
    models = {role: catalog.get(model) or ModelBinding(model) for role, model in bound.items()}
    return Environment(packs=packs or {}, models=models, catalog=catalog, default_model=default)


@dataclass(frozen=True)
class BoundModel:
    model: str
    source: str         # "--bind ROLE=MODEL" or "config FILE [models.bind]"


@dataclass(frozen=True)
class ModelSources:
    """Where the Host's model ids came from, in words for its hints."""
    bound: dict         # role -> BoundModel
    default_model: str
    default_source: str     # "--default-model MODEL", "config FILE [models] default" or "built in"


def model_sources(config_path: str | None, binds: list[str], default_model: str | None) -> ModelSources:
    """The sources of the settings ``build_environment`` read and checked."""
    table = read_document(config_path).get('models', {}) if config_path else {}
    bound = {role: BoundModel(model, 'config %s [models.bind]' % config_path)
             for role, model in table.get('bind', {}).items()}
    for setting in binds:
        role, _, model = setting.partition('=')
        bound[role] = BoundModel(model, '--bind %s' % setting)
    if default_model:
        return ModelSources(bound, default_model, '--default-model %s' % default_model)
    if 'default' in table:
        return ModelSources(bound, table['default'], 'config %s [models] default' % config_path)
    return ModelSources(bound, DEFAULT_MODEL_ID, 'built in')


def gateway_client(environ, prompt_text: str, limits):
    """What a run's model rounds go through (see the module docstring for
    when model access is on)."""
    config = None
    if GATEWAY_URL in environ or declared_roles(prompt_text):
        from ..gateway import GatewaySetupError, load_gateway_config
        try:
            config = load_gateway_config(environ)
        except GatewaySetupError as err:            # reported before the run starts
            raise SettingsError(str(err)) from None
    return LazyGateway(config, limits)


class LazyGateway:
    """The GatewayClient, built at the first model round: a run that calls
    no model never imports the gateway package."""

    def __init__(self, config, limits):
        self._config = config
        self._limits = limits
        self._client = None
        self._lock = threading.Lock()

    def submit(self, request, **options):
        return self._get().submit(request, **options)

    def list_models(self, **options):
        return self._get().list_models(**options)

    def _get(self):
        with self._lock:
            if self._client is None:
                from ..gateway import GatewayClient
                self._client = GatewayClient(self._config, receive_timeout=self._limits.receive_timeout,
                                             response_cap=self._limits.response_cap)
            return self._client

    def close(self) -> None:
        with self._lock:
            if self._client is not None:
                self._client.close()


def declared_roles(text: str) -> tuple:
    """The model roles (``ModelRole``) a prompt's frontmatter declares; none
    when it does not parse (the run reports that, and calls no model)."""
    from ..prompt import ParseError
    from ..prompt.frontmatter import read, split
    try:
        return read(split(text.removeprefix('\ufeff').replace('\r\n', '\n'))[0]).models
    except ParseError:
        return ()


def _catalog(table, where: str) -> dict:
    if not isinstance(table, dict):
        raise SettingsError('%s must be a table of model ids' % where)
    catalog = {}
    for model, entry in table.items():
        place = '%s."%s"' % (where, model)
        if not isinstance(entry, dict):
            raise SettingsError('%s must be a table with context and keywords' % place)
        _known_keys(entry, CATALOG_KEYS, place)
        context = entry.get('context', UNBOUND_CONTEXT_WINDOW)
        if type(context) is not int or context < 1:
            raise SettingsError('%s.context must be a whole number of tokens of at least 1, got %r'
                                % (place, context))
        keywords = entry.get('keywords', [])
        if not isinstance(keywords, list) or any(word not in MODEL_KEYWORDS for word in keywords):
            raise SettingsError('%s.keywords must be a list of capability keywords (%s), got %r'
                                % (place, ', '.join(MODEL_KEYWORDS), keywords))
        catalog[model] = ModelBinding(model, context, frozenset(keywords))
    return catalog


def _model_ids(table, where: str):
    if not isinstance(table, dict):
        raise SettingsError('%s must be a table of role = "model id"' % where)
    for role, model in table.items():
        yield role, _model_id(model, '%s.%s' % (where, role))


def _model_id(value, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise SettingsError('%s must be a model id (a non-empty string), got %r' % (where, value))
    return value


def _known_keys(table: dict, known: tuple, where: str) -> None:
    for key in table:
        if key not in known:
            raise SettingsError('%s: unknown key `%s`; expected one of: %s' % (where, key, ', '.join(known)))


def _pair(setting: str, flag: str, shape: str) -> tuple[str, str]:
    name, equals, value = setting.partition('=')
    if not equals or not name or not value:
        raise SettingsError('%s expects %s, got %r' % (flag, shape, setting))
    return name, value
