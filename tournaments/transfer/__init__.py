"""A whole event as one JSON document, to move it between a hall laptop and the public server
or to keep as a backup: ``export.event_export`` writes it, ``import_.event_import`` reads it
back in one transaction, scoped by the importing user's roles. Scores are never read from the
file: every game's hands are replayed through the rules engine on import."""

from .export import FORMAT_NAME, FORMAT_VERSION, event_export
from .import_ import (
    ImportNote,
    ImportRefused,
    ImportResult,
    event_import,
    read_document,
)

__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "ImportNote",
    "ImportRefused",
    "ImportResult",
    "event_export",
    "event_import",
    "read_document",
]
