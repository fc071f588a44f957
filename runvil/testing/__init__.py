"""Test support shipped with runvil: the scripted OpenAI-compatible gateway
(``runvil.testing.gateway``) and its script format (``runvil.testing.script``)."""
