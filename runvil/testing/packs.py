"""A small built-in test Pack, ``web``, for tests, conformance cases and
offline prompt development (``runvil run --pack runvil.testing.packs``).

It reaches no network: ``search`` and ``fetch`` read a fixed in-memory
corpus, so a scripted model can call them and a test can predict their
answers.

* ``web/search {query}``: the titles and addresses of the corpus pages
  whose text holds every word of the query (case-insensitive), or
  ``no results for ...``; an empty query fails;
* ``web/fetch {url}``: a corpus page's text; an unknown address fails
  with ``no page at URL``;
* ``web/wait {seconds}``: sleeps (0 to 30 s) and answers ``waited N s``;
  it returns early when the call is aborted, so stops and cancels can be
  tested against a tool still running.

Its prelude defines ``web.search(query)`` and ``web.fetch(url)`` in every
section VM.  A second Pack, ``broken``, has no tools and a prelude that
fails, so a prompt declaring it fails before any section code runs.
"""
from __future__ import annotations

from ..tools import Pack, PackTool, ToolFailure

CORPUS = {
    'https://example.test/paris-towers': (
        'Tallest buildings in Paris',
        'The Tour Montparnasse, at 210 metres, is the tallest building in Paris proper; '
        'the Eiffel Tower is taller but is not a building.'),
    'https://example.test/sea': (
        'The sea',
        'The sea covers about seventy percent of the surface of the Earth.'),
    'https://example.test/clocks': (
        'Keeping time',
        'A clock shows the time of day; the tool answers at 14:05.'),
    'https://example.test/ada-lovelace': (
        'Ada Lovelace',
        "Ada Lovelace (1815-1852) was an English mathematician. She wrote the first published algorithm "
        "meant for a machine, for Charles Babbage's Analytical Engine."),
}
MAX_WAIT = 30.0


def search(arguments: dict, context) -> str:
    query = arguments.get('query')
    if not isinstance(query, str) or not query.strip():
        raise ToolFailure('search needs a non-empty query string')
    words = query.lower().split()
    hits = [(url, title) for url, (title, body) in CORPUS.items()
            if all(word in (title + ' ' + body).lower() for word in words)]
    if not hits:
        return 'no results for %s' % query
    return '\n'.join('%s (%s)' % (title, url) for url, title in hits)


def fetch(arguments: dict, context) -> str:
    url = arguments.get('url')
    page = CORPUS.get(url) if isinstance(url, str) else None
    if page is None:
        raise ToolFailure('no page at %s' % url)
    return page[1]


def wait(arguments: dict, context) -> str:
    seconds = arguments.get('seconds', 0)
    if type(seconds) not in (int, float) or not 0 <= seconds <= MAX_WAIT:
        raise ToolFailure('seconds must be a number from 0 to %g' % MAX_WAIT)
    if context.wait(seconds):
        raise ToolFailure('aborted')
    return 'waited %g s' % seconds


def _object(**properties) -> dict:
    return {'type': 'object', 'properties': properties, 'required': sorted(properties)}


# The prelude gives a prompt's Lua a direct way to the tools: web.search('sea').
WEB_PRELUDE = """
web = {}
function web.search(query) return tools.call('web/search', {query = query}) end
function web.fetch(url) return tools.call('web/fetch', {url = url}) end
"""

WEB = Pack('web', (
    PackTool('search', 'Search the web; answers the titles and addresses of matching pages.', search,
             _object(query={'type': 'string', 'description': 'the words to look for'})),
    PackTool('fetch', 'Fetch the text of a page by its address.', fetch,
             _object(url={'type': 'string', 'description': 'the page address'})),
    PackTool('wait', 'Wait a number of seconds, then answer.', wait,
             _object(seconds={'type': 'number', 'description': 'how long to wait'})),
), WEB_PRELUDE)

# A Pack whose prelude cannot install, for the tests of that failure.
BROKEN = Pack('broken', (), "local helpers = nil\nhelpers.setup()\n")

# A Pack whose prelude logs three checkpoints, for the log quota tests.
CHATTY = Pack('chatty', (), "for n = 1, 3 do log('prelude ' .. n) end\n")

PACKS = [WEB, BROKEN, CHATTY]
