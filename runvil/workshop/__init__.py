"""The Workshop: the interactive Host in a browser (docs/workshop.md).

``runvil workshop [DIR]`` serves a local web app on 127.0.0.1: the prompt
files under DIR with live diagnostics, runs with live events, the run
history under ``DIR/.runvil/runs/`` and the built-in chat prompt.  The
server is Starlette on uvicorn (the ``workshop`` extra); the page is plain
HTML, CSS and JavaScript in ``static/``.
"""
