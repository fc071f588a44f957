"""The Workshop's web app: the page, its static files and the JSON and
server-sent-event routes the page talks to."""
from __future__ import annotations

import asyncio
import json
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..host.diagnostics import text_problem
from ..host.runner import SetupError
from .history import RunHistory
from .live_run import STREAM_END
from .local_only import LocalOnly
from .prompt_files import FileRefused, PromptFiles, SaveConflict
from .run_form import run_form
from .runs import RunRequest, Runs

STATIC = Path(__file__).parent / 'static'


def build_app(root: str, flags, environ) -> Starlette:
    files = PromptFiles(root)
    history = RunHistory(files.root)
    runs = Runs(files, history, flags, environ)
    api = _Api(files, history, runs)
    routes = [
        Route('/', lambda request: FileResponse(STATIC / 'index.html')),
        Mount('/static', StaticFiles(directory=STATIC), name='static'),
        Route('/api/files', api.tree),
        Route('/api/file', api.open_file),
        Route('/api/check', api.check, methods=['POST']),
        Route('/api/save', api.save, methods=['POST']),
        Route('/api/runs', api.past_runs, methods=['GET']),
        Route('/api/runs', api.start_run, methods=['POST']),
        Route('/api/chat', api.start_chat, methods=['POST']),
        Route('/api/runs/{run_id}/events', api.events),
        Route('/api/runs/{run_id}/cancel', api.cancel, methods=['POST']),
        Route('/api/runs/{run_id}/stop', api.stop, methods=['POST']),
        Route('/api/runs/{run_id}/answer', api.answer, methods=['POST']),
    ]
    app = Starlette(routes=routes, middleware=[Middleware(LocalOnly)])
    app.state.runs = runs
    return app


class _Api:
    def __init__(self, files: PromptFiles, history: RunHistory, runs: Runs):
        self.files = files
        self.history = history
        self.runs = runs

    # -- prompts ----------------------------------------------------------------
    async def tree(self, request: Request):
        return JSONResponse({'root': str(self.files.root), 'files': self.files.tree()})

    async def open_file(self, request: Request):
        try:
            opened = self.files.read(request.query_params.get('path', ''))
        except FileRefused as err:
            return _refused(err, 404)
        return JSONResponse(dict(opened.to_dict(), **_checked(opened.text, str(self.files.full_path(opened.path)))))

    async def check(self, request: Request):
        body = await request.json()
        try:
            path = str(self.files.full_path(body['path']))
        except FileRefused as err:
            return _refused(err, 404)
        return JSONResponse(_checked(body['text'], path))

    async def save(self, request: Request):
        body = await request.json()
        try:
            saved = self.files.save(body['path'], body['text'], body['version'])
        except (FileRefused, OSError) as err:
            return _refused(err, 400)
        if isinstance(saved, SaveConflict):
            return JSONResponse({'conflict': saved.disk.to_dict()}, status_code=409)
        return JSONResponse(dict(saved.to_dict(), **_checked(saved.text, str(self.files.full_path(saved.path)))))

    # -- runs -------------------------------------------------------------------
    async def past_runs(self, request: Request):
        return JSONResponse({'runs': [summary.to_dict() for summary in self.history.summaries()]})

    async def start_run(self, request: Request):
        body = await request.json()
        run_request = RunRequest(body['prompt'], body['text'], dict(body.get('args') or {}),
                                 body.get('input'), dict(body.get('limits') or {}), dict(body.get('binds') or {}))
        try:
            run = self.runs.start(run_request)
        except (SetupError, FileRefused) as err:
            return _refused(err, 400)
        return JSONResponse({'run_id': run.run_id})

    async def start_chat(self, request: Request):
        body = await request.json()
        try:
            run = self.runs.start_chat(body.get('model') or '')
        except SetupError as err:
            return _refused(err, 400)
        return JSONResponse({'run_id': run.run_id})

    async def events(self, request: Request):
        """The run's events as server-sent events: all so far, then each
        new one while the run goes on; a past run's from its history."""
        run_id = request.path_params['run_id']
        run = self.runs.live.get(run_id)
        if run is None:
            kept = self.history.events(run_id)
            if kept is None:
                return _refused('no such run: %s' % run_id, 404)
            return StreamingResponse(_replayed(kept), media_type='text/event-stream')
        return StreamingResponse(_followed(run), media_type='text/event-stream',
                                 headers={'Cache-Control': 'no-cache'})

    async def cancel(self, request: Request):
        return self._control(request, lambda run: run.cancel())

    async def stop(self, request: Request):
        return self._control(request, lambda run: run.stop())

    async def answer(self, request: Request):
        body = await request.json()
        run = self.runs.live.get(request.path_params['run_id'])
        if run is None or not run.answer(body['id'], body['text']):
            return _refused('that question is no longer open', 409)
        return JSONResponse({'ok': True})

    def _control(self, request: Request, action):
        run = self.runs.live.get(request.path_params['run_id'])
        if run is None:
            return _refused('the run is not running', 409)
        action(run)
        return JSONResponse({'ok': True})


def _checked(text: str, path: str) -> dict:
    """The editor's diagnostic and the run form for prompt ``text``."""
    problem = text_problem(text, path)
    shown = None if problem is None else {'code': problem.code, 'message': problem.shown_message,
                                          'line': problem.prompt_line, 'column': problem.prompt_column}
    return {'problem': shown, 'form': run_form(text)}


def _refused(err, status: int) -> JSONResponse:
    return JSONResponse({'error': str(err)}, status_code=status)


def _frame(event: dict) -> str:
    return 'data: %s\n\n' % json.dumps(event, ensure_ascii=False)


async def _replayed(events: list[dict]):
    for event in events:
        yield _frame(event)
    yield _frame({'event': STREAM_END})


async def _followed(run):
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue = asyncio.Queue()

    def follower(event: dict) -> None:
        try:
            loop.call_soon_threadsafe(queue.put_nowait, event)
        except RuntimeError:    # the server has stopped; the page is gone
            pass
    backlog = run.follow(follower)
    try:
        for event in backlog:
            yield _frame(event)
            if event['event'] == STREAM_END:
                return
        while True:
            event = await queue.get()
            yield _frame(event)
            if event['event'] == STREAM_END:
                return
    finally:
        run.unfollow(follower)
