"""The Workshop under test: the real app on uvicorn on 127.0.0.1, talking
to the scripted gateway over HTTP, driven by headless Chromium through
Playwright (Debian's ``chromium``; Playwright's own browsers are never
downloaded).  ``workshop(prompts, script, *flags)`` writes the prompt
files into a fresh directory and serves the Workshop over it; ``page`` is a
browser page; ``open_prompt(served, name)`` opens a file in it and ``run_prompt(served,
name)`` runs it;
``shot(page, name)`` saves a screenshot of the view (into
``$RUNVIL_WORKSHOP_SCREENSHOTS`` when set, docs/images for the docs)."""
from __future__ import annotations

import argparse
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from runvil.testing.gateway import ScriptedGateway

CHROMIUM = '/usr/bin/chromium'
CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
                  '--disable-dev-shm-usage', '--no-first-run']
VIEWPORT = {'width': 1440, 'height': 900}


@dataclass
class Served:
    url: str
    root: Path
    gateway: ScriptedGateway


@pytest.fixture(scope='session')
def browser():
    if not os.path.exists(CHROMIUM):
        pytest.skip('no Chromium at %s: the Workshop browser tests need Debian\'s chromium package' % CHROMIUM)
    sync_api = pytest.importorskip('playwright.sync_api', reason='the Workshop browser tests need playwright')
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(15000)
    opened = context.new_page()
    yield opened
    context.close()


@pytest.fixture
def workshop(tmp_path):
    pytest.importorskip('uvicorn', reason='the Workshop needs the workshop extra (starlette, uvicorn)')
    import uvicorn
    from runvil.workshop.app import build_app
    from runvil.workshop.command import HOST, add_arguments
    started = []

    def serve(prompts: dict[str, str], script=None, *flags: str) -> Served:
        root = tmp_path / 'prompts'
        for name, text in prompts.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text, encoding='utf-8')
        gateway = ScriptedGateway(script).start()
        parser = argparse.ArgumentParser()
        add_arguments(parser)
        args = parser.parse_args([str(root), '--port', '0', '--no-browser', '--pack', 'runvil.testing.packs',
                                  *flags])
        app = build_app(str(root), args, {'RUNVIL_GATEWAY_URL': gateway.url})
        server = uvicorn.Server(uvicorn.Config(app, host=HOST, port=0, log_level='warning',
                                              timeout_graceful_shutdown=2))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        started.append((server, thread, gateway, app))
        deadline = time.monotonic() + 10
        while not server.started:
            assert time.monotonic() < deadline, 'the Workshop did not start'
            time.sleep(0.02)
        port = server.servers[0].sockets[0].getsockname()[1]
        return Served('http://%s:%d/' % (HOST, port), root, gateway)

    yield serve
    for server, thread, gateway, app in started:
        for run in app.state.runs.live.values():
            run.cancel()
        server.should_exit = True
        thread.join(10)
        gateway.stop()


@pytest.fixture
def open_prompt(page):
    """``open_prompt(served, name)``: load the page and open prompt file ``name``."""
    from playwright.sync_api import expect

    def open_file(served: Served, name: str) -> None:
        page.goto(served.url)
        page.locator('#file-tree a', has_text=name).click()
        expect(page.locator('#file-name')).to_have_text(name)
    return open_file


@pytest.fixture
def run_prompt(page, open_prompt):
    """``run_prompt(served, name)``: open prompt file ``name``, run it with
    the form as it stands; returns the run's view."""
    def run(served: Served, name: str):
        open_prompt(served, name)
        page.locator('#run').click()
        return page.locator('#run-view')
    return run


@pytest.fixture
def shot(tmp_path):
    folder = Path(os.environ.get('RUNVIL_WORKSHOP_SCREENSHOTS') or tmp_path / 'screenshots')
    folder.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        path = folder / ('workshop-%s.png' % name)
        page.screenshot(path=str(path))
        return path
    return take
