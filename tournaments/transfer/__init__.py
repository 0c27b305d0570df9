"""A whole event as one JSON document, to move it between a hall laptop and the public server
or to keep as a backup: ``export.event_export`` writes it, ``import_.event_import`` reads it
back in one transaction, scoped by the importing user's roles (``import_.event_import_preview``
says what it would do). Scores are never read from the file: every game's hands are replayed
through the rules engine on import."""

from .export import FORMAT_NAME, FORMAT_VERSION, event_export
from .import_ import (
    ImportNote,
    ImportPreview,
    ImportRefused,
    ImportResult,
    event_import,
    event_import_preview,
    read_document,
)
from .people import PersonMatch, parse_people

__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "ImportNote",
    "ImportPreview",
    "ImportRefused",
    "ImportResult",
    "PersonMatch",
    "event_export",
    "event_import",
    "event_import_preview",
    "parse_people",
    "read_document",
]
