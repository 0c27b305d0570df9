"""The closed sets of the events app, stored as their values."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class EventKind(models.TextChoices):
    TOURNAMENT = "tournament", _("Tournament")
    CLUB_NIGHT = "club_night", _("Club night")


class Format(models.TextChoices):
    ROUND_ROBIN = "round_robin", _("Round robin")
    SWISS = "swiss", _("Swiss")
    SINGLE_ELIMINATION = "single_elimination", _("Single elimination")
    DOUBLE_ELIMINATION = "double_elimination", _("Double elimination")
    POOLS = "pools", _("Pools, then a knockout")
    SWISS_KNOCKOUT = "swiss_knockout", _("Swiss, then a knockout")
    ROUND_ROBIN_KNOCKOUT = "round_robin_knockout", _("Round robin, then a knockout")
    PROGRESSIVE = "progressive", _("Individual progressive")

    @property
    def is_bracket(self) -> bool:
        return self in (Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION)

    @property
    def first_stage(self) -> Format | None:
        """How a staged event's teams play before its knockout (None: the format is not
        staged)."""
        return {
            Format.POOLS: Format.POOLS,
            Format.SWISS_KNOCKOUT: Format.SWISS,
            Format.ROUND_ROBIN_KNOCKOUT: Format.ROUND_ROBIN,
        }.get(self)

    @property
    def individual(self) -> bool:
        return self is Format.PROGRESSIVE


class KnockoutKind(models.TextChoices):
    """The bracket that ends a staged event."""

    SINGLE = "single_elimination", _("Single elimination")
    DOUBLE = "double_elimination", _("Double elimination")


class Seeding(models.TextChoices):
    MANUAL = "manual", _("Manual")
    RANDOM = "random", _("Random")
    RATING = "rating", _("Rating")


class EventStatus(models.TextChoices):
    DRAFT = "draft", _("Registration")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")


class RegistrationMode(models.TextChoices):
    """Whether players may sign themselves up: not at all, straight in, or on approval."""

    CLOSED = "closed", _("Closed: the organiser enters the teams")
    OPEN = "open", _("Open: players sign up")
    APPROVAL = "approval", _("Open, with the organiser's approval")


class EntryStatus(models.TextChoices):
    REGISTERED = "registered", _("Registered")
    CHECKED_IN = "checked_in", _("Checked in")
    WITHDRAWN = "withdrawn", _("Withdrawn")


class RoundStatus(models.TextChoices):
    READY = "ready", _("Ready to start")
    STARTED = "started", _("Started")
    FINISHED = "finished", pgettext_lazy("a round's status (une ronde)", "Finished")


class ResultKind(models.TextChoices):
    PENDING = "pending", _("Pending")
    PLAYED = "played", _("Played")
    BYE = "bye", _("Bye")
    FORFEIT = "forfeit", _("Forfeit")
    ADJUSTED = "adjusted", _("Adjusted")


class SlotSide(models.TextChoices):
    HOME = "home", _("Home (North–South)")
    AWAY = "away", _("Away (East–West)")


class JobStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class Tiebreak(models.TextChoices):
    """Standings metrics an event or season may order by (tournaments/standings/metrics.py)."""

    WINS = "wins", _("Wins")
    WIN_PCT = "win_pct", _("Win percentage")
    POINT_DIFFERENCE = "point_difference", _("Point difference")
    POINTS_FOR = "points_for", _("Points for")
    HEAD_TO_HEAD = "head_to_head", _("Head-to-head among the tied")
    BUCHHOLZ = "buchholz", _("Opponents' wins")
    SEED = "seed", _("Seed")


DEFAULT_TIEBREAKS = [Tiebreak.WINS.value, Tiebreak.POINT_DIFFERENCE.value]


def default_tiebreaks() -> list[str]:
    return list(DEFAULT_TIEBREAKS)
