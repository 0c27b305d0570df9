"""Seasons and events: a tournament, or a club night within a club's season."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from kaiser_club.models import Club

from ..choices import (
    EventKind,
    EventStatus,
    Format,
    KnockoutKind,
    RegistrationMode,
    Seeding,
    default_tiebreaks,
)


class Season(models.Model):
    """A club's season: it collects club nights and ranks their players on a leaderboard."""

    # Looked up by season_name_unique_in_club's index (club, name).
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons", db_index=False)
    name = models.CharField(max_length=120)
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    tiebreaks = models.JSONField(
        default=default_tiebreaks, help_text=_("Leaderboard order, first metric first.")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="season_name_unique_in_club")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.club})"


class Event(models.Model):
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="events")
    season = models.ForeignKey(
        Season, null=True, blank=True, on_delete=models.SET_NULL, related_name="events"
    )
    kind = models.CharField(max_length=20, choices=EventKind.choices, default=EventKind.TOURNAMENT)
    name = models.CharField(max_length=160)
    date = models.DateField()
    venue = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=20, choices=EventStatus.choices, default=EventStatus.DRAFT)

    preset = models.CharField(max_length=40, help_text=_("The preset the rule set came from."))
    rules = models.JSONField(help_text=_("The event's rule set; each game copies it."))
    format = models.CharField(max_length=30, choices=Format.choices, default=Format.SWISS)
    minutes_per_game = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("Overrides the rule set's time limit when set.")
    )
    rounds = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("Rounds to play (Swiss, progressive).")
    )
    tiebreaks = models.JSONField(default=default_tiebreaks)
    seeding = models.CharField(max_length=10, choices=Seeding.choices, default=Seeding.MANUAL)
    forfeit_winner_score = models.SmallIntegerField(default=52)
    forfeit_loser_score = models.SmallIntegerField(default=0)
    check_in_required = models.BooleanField(
        default=True, help_text=_("Pair only the teams that have checked in.")
    )
    third_place = models.BooleanField(default=False, help_text=_("Single elimination."))
    grand_final_reset = models.BooleanField(default=True, help_text=_("Double elimination."))
    pool_count = models.PositiveSmallIntegerField(null=True, blank=True)
    pool_advance = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("Teams of each pool that go on to the knockout.")
    )
    knockout_size = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text=_("Teams that go on from the Swiss or round robin to the knockout."),
    )
    knockout_kind = models.CharField(
        max_length=20,
        choices=KnockoutKind.choices,
        default=KnockoutKind.SINGLE,
        help_text=_("The knockout after the first stage."),
    )
    verification = models.BooleanField(
        default=True, help_text=_("A player of the other partnership confirms each hand.")
    )
    public_pages = models.BooleanField(default=True)
    registration = models.CharField(
        max_length=10, choices=RegistrationMode.choices, default=RegistrationMode.CLOSED
    )
    capacity = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text=_("Places for sign-ups; past them, a waiting list.")
    )
    registration_closes_at = models.DateTimeField(null=True, blank=True)

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-date", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(minutes_per_game__isnull=True) | Q(minutes_per_game__gte=1),
                name="event_minutes_positive",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=[k.value for k in EventKind]), name="event_kind_known"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date})"

    @property
    def format_enum(self) -> Format:
        return Format(self.format)

    @property
    def is_bracket(self) -> bool:
        return self.format_enum.is_bracket

    @property
    def individual(self) -> bool:
        return self.format_enum.individual

    @property
    def staged(self) -> bool:
        """A first stage (pools, Swiss, round robin), then a knockout, in one event."""
        return self.format_enum.first_stage is not None

    @property
    def double_bracket(self) -> bool:
        """Whether the event's bracket (its whole draw, or its knockout) is double elimination."""
        if self.staged:
            return self.knockout_kind == KnockoutKind.DOUBLE
        return self.format == Format.DOUBLE_ELIMINATION

    @property
    def time_limit(self) -> int | None:
        """Minutes per game: the organiser's override, or the rule set's."""
        if self.minutes_per_game:
            return self.minutes_per_game
        limit = self.rules.get("time_limit_minutes")
        return int(limit) if limit else None
