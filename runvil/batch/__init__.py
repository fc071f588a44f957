"""``runvil batch``: one prompt run over every input of a dataset, each run
one JSON line of the output file, resumable, on a local process pool or on
Ray (docs/batch.md)."""
