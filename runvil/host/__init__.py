"""The Host: what a person runs.  ``runvil run`` lives here."""
from .command import main

__all__ = ['main']
