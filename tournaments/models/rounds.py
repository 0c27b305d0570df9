"""Rounds, tables and pairings: which teams play which game at which table.

A ``Pairing`` is one game slot of a round. It points at its ``scoring.Game`` once both teams
are known (a Swiss round's games exist from generation; a bracket's later games are created
when the results before them are in). For elimination events a pairing is also a bracket
match, linked to the match its winner (and loser) goes on to. Its result (winner, points for
and against) is what standings read: copied from the game when the game ends, or set by the
organiser (a bye, a forfeit, an adjusted result).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from kaiser_club.sentences import N_, Said
from scoring.models import Game, Team

from ..choices import ResultKind, RoundStatus, SlotSide
from ..naming import LABEL_CODES, round_said, stored_label
from .entries import Entry
from .events import Event


class Round(models.Model):
    # Looked up by round_number_once's index (event, number).
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="round_set", db_index=False
    )
    number = models.PositiveSmallIntegerField()
    label = models.CharField(max_length=80, blank=True)
    status = models.CharField(max_length=20, choices=RoundStatus.choices, default=RoundStatus.READY)
    started_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return self.label or f"Round {self.number}"

    @property
    def said(self) -> Said:
        """The round as a sentence names it, in the reader's language: "Round 2 (Semi-finals)"
        for a bracket's round (the number keeps the sentence's grammar, the stage is the name
        the pages give it), "Round 3", or a label the organiser typed, as typed."""
        if self.label and LABEL_CODES.search(self.label):
            return N_("Round %(n)s (%(stage)s)", n=self.number, stage=round_said(self, self.event))
        if self.label and not stored_label(self.label):
            return self.label
        return N_("Round %(n)s", n=self.number)

    @property
    def started(self) -> bool:
        return self.status != RoundStatus.READY


class Table(models.Model):
    """A numbered table of an event, with the code a tablet uses to reach its current game."""

    # Looked up by table_number_once's index (event, number).
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="tables", db_index=False
    )
    number = models.PositiveSmallIntegerField()
    code = models.CharField(
        max_length=40,
        null=True,
        blank=True,
        unique=True,
        help_text=_("Random; none while revoked."),
    )
    code_issued_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="table_number_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Table {self.number}"


class Pairing(models.Model):
    # Looked up by the (event, result) index below.
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="pairings", db_index=False
    )
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="pairings")
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.SET_NULL, related_name="pairings"
    )
    pool = models.PositiveSmallIntegerField(null=True, blank=True)
    home = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    away = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    home_team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    away_team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    first_dealer_home = models.BooleanField(default=True)
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="pairing"
    )

    # Elimination brackets: the match this row is, and where its winner and loser go.
    match_number = models.PositiveIntegerField(null=True, blank=True)
    code = models.CharField(max_length=12, blank=True)
    stage = models.CharField(max_length=20, blank=True)
    winner_to = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    winner_to_side = models.CharField(max_length=4, choices=SlotSide.choices, blank=True)
    loser_to = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    loser_to_side = models.CharField(max_length=4, choices=SlotSide.choices, blank=True)
    home_seeded = models.BooleanField(default=False)
    away_seeded = models.BooleanField(default=False)
    conditional = models.BooleanField(
        default=False,
        help_text=_("Played only if the team in the away slot wins the match before."),
    )
    cancelled = models.BooleanField(default=False)
    advanced = models.BooleanField(
        default=False, help_text=_("Its result has been carried to the next matches.")
    )

    # The result standings read.
    result = models.CharField(max_length=10, choices=ResultKind.choices, default=ResultKind.PENDING)
    winner_side = models.CharField(max_length=4, choices=SlotSide.choices, blank=True)
    home_points = models.SmallIntegerField(null=True, blank=True)
    away_points = models.SmallIntegerField(null=True, blank=True)
    reason = models.CharField(max_length=300, blank=True)
    points_set_by_organiser = models.BooleanField(
        default=False, help_text=_("A bye's points were changed by hand: keep them.")
    )
    played_late = models.BooleanField(
        default=False, help_text=_("Played after its round; the event may move on without it.")
    )

    class Meta:
        ordering = ["round__number", "table__number", "match_number", "id"]
        indexes = [models.Index(fields=["event", "result"])]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "match_number"],
                condition=Q(match_number__isnull=False),
                name="pairing_match_number_once",
            ),
            models.UniqueConstraint(
                fields=["round", "table"],
                condition=Q(table__isnull=False),
                name="pairing_one_game_per_table_in_round",
            ),
            models.CheckConstraint(
                condition=Q(winner_side="") | ~Q(result=ResultKind.PENDING),
                name="pairing_winner_only_when_decided",
            ),
        ]

    def __str__(self) -> str:
        name = self.code or f"R{self.round_id}"
        return f"{name}: {self.home or '?'} v {self.away or ('bye' if self.is_bye else '?')}"

    @property
    def is_bye(self) -> bool:
        return self.result == ResultKind.BYE

    @property
    def decided(self) -> bool:
        return self.result != ResultKind.PENDING

    def entry(self, side: str) -> Entry | None:
        return self.home if side == SlotSide.HOME else self.away

    @property
    def winner(self) -> Entry | None:
        return self.entry(self.winner_side) if self.winner_side else None

    @property
    def loser(self) -> Entry | None:
        if not self.winner_side:
            return None
        return self.away if self.winner_side == SlotSide.HOME else self.home
