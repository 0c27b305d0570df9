"""The events app's rows: seasons and events, entries, rounds, tables, pairings, jobs."""

from .entries import Entry, Substitution
from .events import Event, Season
from .jobs import GenerationJob, Rollback
from .registrations import (
    MessageChannel,
    MessageStatus,
    OutboxMessage,
    PushSubscription,
    Registrant,
    Registration,
    RegistrationStatus,
)
from .reports import ReportJob, ReportKind
from .rounds import Pairing, Round, Table
from .versions import EventVersion

__all__ = [
    "Entry",
    "Event",
    "EventVersion",
    "GenerationJob",
    "MessageChannel",
    "MessageStatus",
    "OutboxMessage",
    "Pairing",
    "PushSubscription",
    "Registrant",
    "Registration",
    "RegistrationStatus",
    "ReportJob",
    "ReportKind",
    "Rollback",
    "Round",
    "Season",
    "Substitution",
    "Table",
]
