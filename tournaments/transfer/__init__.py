"""A whole event as one JSON document, to move it between a hall laptop and the public server
or to keep as a backup: ``export.event_export`` writes it, ``import_.event_import`` reads it
back in one transaction. Scores are never read from the file: every game's hands are replayed
through the rules engine on import."""

from .export import FORMAT_NAME, FORMAT_VERSION, event_export
from .import_ import ImportRefused, event_import

__all__ = ["FORMAT_NAME", "FORMAT_VERSION", "ImportRefused", "event_export", "event_import"]
