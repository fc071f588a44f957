"""The work an answerer hands back when nothing is left running: the
answer was given at once (a file read, a store operation), or the work
cannot be taken back (a question on the operator's screen).  Aborting it
does nothing; a late answer is ignored by the Harness loop."""


class Settled:
    def abort(self) -> None:
        pass


SETTLED = Settled()
