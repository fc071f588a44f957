"""One run in flight as the page sees it: the events so far (a page that
opens the run late, or reloads, gets them first), the pages following it,
the run handle (cancel, stop) and the operator's open question."""
from __future__ import annotations

import threading

from ..harness import RunHandle

# Published to the page only, never kept in the history: the reply's
# fragments (the final text is in the round's events) and the end of the stream.
FRAGMENT = 'fragment'
STREAM_END = 'stream_end'


class LiveRun:
    def __init__(self, run_id: str, keep):
        self.run_id = run_id
        self.keep = keep            # writes a kept event to the history
        self.handle = RunHandle()
        self.events: list[dict] = []
        self.followers: set = set()
        self.lock = threading.Lock()
        self.question: _Question | None = None
        self.questions = 0

    def publish(self, event: dict) -> None:
        # Under the lock: fragments come from the round's thread, the rest from
        # the Harness's, and every follower must see them in one order.
        with self.lock:
            if event['event'] not in (FRAGMENT, STREAM_END):
                self.keep(event)
            self.events.append(event)
            for follower in self.followers:     # followers only queue the event
                follower(event)

    def follow(self, follower) -> list[dict]:
        """Send every later event to ``follower``; returns the events so far."""
        with self.lock:
            self.followers.add(follower)
            return list(self.events)

    def unfollow(self, follower) -> None:
        with self.lock:
            self.followers.discard(follower)

    def fragment(self, stamp: dict, kind: str, text: str) -> None:
        """``live`` of the model answerer: a piece of a reply as it streams in."""
        self.publish({'event': FRAGMENT, 'round': stamp.get('round'), 'section': stamp.get('section'),
                      'origin': stamp.get('origin'), 'kind': kind, 'text': text})

    def ask(self, question: str) -> str | None:
        """The Harness's operator: the question goes to the page and waits
        for its answer (None once the run is cancelled)."""
        with self.lock:
            self.questions += 1
            waiting = self.question = _Question(self.questions)
        self.publish({'event': 'question', 'id': waiting.id, 'question': question})
        waiting.answered.wait()
        return waiting.answer

    def answer(self, question_id: int, text: str) -> bool:
        """Answer the open question; False when ``question_id`` is not open."""
        with self.lock:
            waiting = self.question
            if waiting is None or waiting.id != question_id:
                return False
            self.question = None
        self.publish({'event': 'answered', 'id': question_id, 'text': text})
        waiting.give(text)
        return True

    def cancel(self) -> None:
        self.handle.cancel()
        with self.lock:
            waiting, self.question = self.question, None
        if waiting is not None:
            waiting.give(None)

    def stop(self) -> None:
        self.handle.stop()

    def end(self) -> None:
        self.publish({'event': STREAM_END})


class _Question:
    def __init__(self, question_id: int):
        self.id = question_id
        self.answer: str | None = None
        self.answered = threading.Event()

    def give(self, answer: str | None) -> None:
        self.answer = answer
        self.answered.set()
