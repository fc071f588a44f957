"""The conversation: the section's ``messages`` list, its record rules, what
the model receives, the context precheck and compaction.  The model-tool
loop that runs over it (``models.loop``) is the models package's."""
