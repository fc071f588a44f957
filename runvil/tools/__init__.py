"""Tools: Packs and the tools they bring, the section's tool scope (the
``tools`` and ``packs`` globals), and how a tool call is answered."""
from .pack import Pack, PackTool, ToolContext, ToolFailure, load_packs

__all__ = ['Pack', 'PackTool', 'ToolContext', 'ToolFailure', 'load_packs']
