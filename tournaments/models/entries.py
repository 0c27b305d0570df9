"""Registration: a team (or, for progressive events, a single player) entered in an event."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from kaiser_club.models import Club, Player
from scoring.models import Game, Team

from ..choices import EntryStatus
from .events import Event


class Entry(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="entries"
    )
    player = models.ForeignKey(
        Player,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="entries",
        help_text=_("A single player, in a progressive event."),
    )
    name = models.CharField(max_length=160)
    club = models.ForeignKey(
        Club,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("The team's home club; pairings keep club-mates apart where they can."),
    )
    seed = models.PositiveSmallIntegerField(null=True, blank=True)
    rating = models.FloatField(null=True, blank=True)
    pool = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(
        max_length=20, choices=EntryStatus.choices, default=EntryStatus.REGISTERED
    )
    late = models.BooleanField(
        default=False, help_text=_("Entered after the first round; plays from the next round.")
    )
    registered_at = models.DateTimeField(auto_now_add=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["event", "seed", "name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(team__isnull=False, player__isnull=True)
                | Q(team__isnull=True, player__isnull=False),
                name="entry_team_or_player",
            ),
            models.UniqueConstraint(
                fields=["event", "team"], condition=Q(team__isnull=False), name="entry_team_once"
            ),
            models.UniqueConstraint(
                fields=["event", "player"],
                condition=Q(player__isnull=False),
                name="entry_player_once",
            ),
            models.UniqueConstraint(
                fields=["event", "seed"], condition=Q(seed__isnull=False), name="entry_seed_once"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def active(self) -> bool:
        return self.status != EntryStatus.WITHDRAWN


class Substitution(models.Model):
    """A substitute player for one game, in place of a team's player."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="substitutions")
    seat = models.PositiveSmallIntegerField()
    replaced = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    substitute = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    reason = models.CharField(max_length=300, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("substitution")
        verbose_name_plural = _("substitutions")
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return gettext("%(substitute)s for %(replaced)s (game %(game)s)") % {
            "substitute": self.substitute,
            "replaced": self.replaced,
            "game": self.game_id,
        }
