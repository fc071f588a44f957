"""The conversation: the section's ``messages`` list, its record rules, what
the model receives, the context precheck, compaction and the model-tool
loop (``models.loop``)."""
