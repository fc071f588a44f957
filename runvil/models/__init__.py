"""Models: the ``models`` global and model handles, one model round (the
request, the ``model.round`` effect, its events), sampling options, and the
model-tool loop (``models.loop``) with its ``compactors``."""
