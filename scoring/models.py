"""Games and hands as stored. The rules live in scoring.rules; these rows keep what was entered
and, for fast reads, what the rules derived from it (points, running scores, the game's state)."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from kaiser_club.models import Club, Player

from .choices import (
    ContractChoice,
    EndReasonChoice,
    GameStatus,
    HandAction,
    HandKindChoice,
    HandStatus,
    MisdealReasonChoice,
    SeatChoice,
    SuitChoice,
    TeamChoice,
    end_reason_text,
)
from .rules.ruleset import MAX_CARD_VALUE


class Team(models.Model):
    """A partnership of two players."""

    name = models.CharField(max_length=160, blank=True)  # as long as an entry's name
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL)
    player_one = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    player_two = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(player_one=models.F("player_two")), name="team_two_different_players"
            )
        ]

    def __str__(self) -> str:
        return self.name or f"{self.player_one} & {self.player_two}"

    @property
    def player_ids(self) -> set[int]:
        return {self.player_one_id, self.player_two_id}


class Game(models.Model):
    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="games")
    ns_team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="games_as_ns")
    ew_team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="games_as_ew")
    north = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    east = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    south = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    west = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    first_dealer = models.PositiveSmallIntegerField(choices=SeatChoice.choices)
    preset = models.CharField(max_length=40)
    rules = models.JSONField(help_text=_("A copy of the rule set the game started with."))
    from_paper = models.BooleanField(
        default=False, help_text=_("Entered after the fact from a paper score sheet: no clock.")
    )

    status = models.CharField(
        max_length=20, choices=GameStatus.choices, default=GameStatus.IN_PROGRESS
    )
    # Derived by the rules engine after every change, kept for fast reads.
    ns_score = models.IntegerField(default=0)
    ew_score = models.IntegerField(default=0)
    dealer = models.PositiveSmallIntegerField(choices=SeatChoice.choices)
    target = models.PositiveSmallIntegerField()
    bid_out_line = models.PositiveSmallIntegerField(null=True, blank=True)
    ns_bid_out = models.BooleanField(default=False)
    ew_bid_out = models.BooleanField(default=False)
    hand_count = models.PositiveSmallIntegerField(default=0)
    # What the next hand needs of the hands before it, beyond the scores above: a hand was
    # after time; a played hand was after time (scoring.rules.resume). Kept with the rest.
    kept_after_time = models.BooleanField(default=False)
    kept_played_after_time = models.BooleanField(default=False)
    winner = models.CharField(max_length=2, choices=TeamChoice.choices, blank=True)
    end_reason = models.CharField(max_length=20, choices=EndReasonChoice.choices, blank=True)
    forfeited_by = models.CharField(max_length=2, choices=TeamChoice.choices, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(
        default=1, help_text=_("Goes up with every change, so a stale client can be told.")
    )

    # The clock. The deadline is started_at + time_limit + paused time + added minutes.
    time_limit_minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_seconds = models.PositiveIntegerField(default=0)
    added_minutes = models.SmallIntegerField(default=0)
    time_called_at = models.DateTimeField(null=True, blank=True)

    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["status", "time_called_at"])]
        constraints = [
            models.CheckConstraint(
                condition=~Q(ns_team=models.F("ew_team")), name="game_two_different_teams"
            ),
            models.CheckConstraint(
                condition=Q(winner="") | Q(status=GameStatus.FINISHED),
                name="game_winner_only_when_finished",
            ),
        ]

    def __str__(self) -> str:
        return gettext("%(ns)s v %(ew)s") % {"ns": self.ns_team, "ew": self.ew_team}

    @property
    def deadline(self) -> datetime | None:
        if self.started_at is None or self.time_limit_minutes is None:
            return None
        return self.started_at + timedelta(
            minutes=self.time_limit_minutes + self.added_minutes, seconds=self.paused_seconds
        )

    @property
    def end_text(self) -> str:
        """How the game ended, in words ("reached the target", "forfeit"…); "" while played."""
        return end_reason_text(self.end_reason) if self.end_reason else ""

    def seat_players(self) -> dict[int, Player]:
        return {0: self.north, 1: self.east, 2: self.south, 3: self.west}


class ConfirmedHandManager(models.Manager["Hand"]):
    """Hands that count: a pending hand is in no score, standing or public page until the
    other partnership confirms it, so the default manager (and ``game.hands``) leaves it out.
    ``Hand.with_pending`` sees every row (verification, the one-pending-hand checks)."""

    def get_queryset(self) -> models.QuerySet[Hand]:
        return super().get_queryset().filter(status=HandStatus.CONFIRMED)


class Hand(models.Model):
    # Looked up by one_hand_per_number's index (game, number): one tree fewer to write a hand.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands", db_index=False)
    number = models.PositiveSmallIntegerField()
    client_id = models.UUIDField(default=uuid.uuid4)
    request_digest = models.CharField(
        max_length=64, help_text=_("Digest of the submitted body, to tell a retry from a clash.")
    )

    kind = models.CharField(max_length=10, choices=HandKindChoice.choices)
    dealer = models.PositiveSmallIntegerField(choices=SeatChoice.choices)
    bidder = models.PositiveSmallIntegerField(choices=SeatChoice.choices, null=True, blank=True)
    bid = models.PositiveSmallIntegerField(null=True, blank=True)
    contract = models.CharField(
        max_length=16, choices=ContractChoice.choices, default=ContractChoice.TRUMP
    )
    trump = models.CharField(max_length=10, choices=SuitChoice.choices, blank=True)
    forced = models.BooleanField(default=False)
    bidding_team_tricks = models.PositiveSmallIntegerField(null=True, blank=True)
    five_hearts = models.CharField(max_length=2, choices=TeamChoice.choices, blank=True)
    three_spades = models.CharField(max_length=2, choices=TeamChoice.choices, blank=True)
    bidder_tricks = models.PositiveSmallIntegerField(null=True, blank=True)
    misdeal_reason = models.CharField(
        max_length=20, choices=MisdealReasonChoice.choices, blank=True
    )
    completed_at = models.DateTimeField(
        null=True, blank=True, help_text=_("When the hand was finished at the table.")
    )

    # Derived by the rules engine.
    ns_points = models.SmallIntegerField(default=0)
    ew_points = models.SmallIntegerField(default=0)
    made = models.BooleanField(null=True)
    ns_change = models.SmallIntegerField(default=0)
    ew_change = models.SmallIntegerField(default=0)
    ns_score = models.IntegerField(default=0)
    ew_score = models.IntegerField(default=0)
    after_time = models.BooleanField(default=False)

    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    recorded_at = models.DateTimeField(auto_now_add=True)

    # Verification, as Bridgemate does it: where the event asks for it, a hand entered at the
    # table is pending until a player of the other partnership confirms it on the same device.
    status = models.CharField(
        max_length=10, choices=HandStatus.choices, default=HandStatus.CONFIRMED
    )
    entered_by_seat = models.PositiveSmallIntegerField(
        choices=SeatChoice.choices, null=True, blank=True
    )
    confirmed_by_seat = models.PositiveSmallIntegerField(
        choices=SeatChoice.choices, null=True, blank=True
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)

    with_pending = models.Manager()
    objects = ConfirmedHandManager()

    class Meta:
        ordering = ["game", "number"]
        default_manager_name = "objects"
        base_manager_name = "with_pending"
        constraints = [
            models.UniqueConstraint(
                fields=["game"],
                condition=Q(status=HandStatus.PENDING),
                name="one_pending_hand_per_game",
            ),
            models.CheckConstraint(
                condition=Q(status=HandStatus.CONFIRMED) | Q(confirmed_by_seat__isnull=True),
                name="pending_hand_not_confirmed",
            ),
            models.CheckConstraint(
                condition=Q(confirmed_by_seat__isnull=True) | Q(entered_by_seat__isnull=False),
                name="confirmed_hand_has_entering_seat",
            ),
            models.UniqueConstraint(fields=["game", "number"], name="one_hand_per_number"),
            models.UniqueConstraint(fields=["game", "client_id"], name="one_hand_per_client_id"),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
            models.CheckConstraint(
                condition=Q(bid__isnull=True) | Q(bid__gte=1, bid__lte=12), name="hand_bid_range"
            ),
            models.CheckConstraint(
                condition=Q(bidding_team_tricks__isnull=True) | Q(bidding_team_tricks__lte=8),
                name="hand_tricks_range",
            ),
            models.CheckConstraint(
                condition=Q(bidder_tricks__isnull=True) | Q(bidder_tricks__lte=8),
                name="hand_bidder_tricks_range",
            ),
            models.CheckConstraint(  # eight tricks, plus or less a card's value
                condition=Q(ns_points__gte=-MAX_CARD_VALUE, ns_points__lte=8 + MAX_CARD_VALUE)
                & Q(ew_points__gte=-MAX_CARD_VALUE, ew_points__lte=8 + MAX_CARD_VALUE),
                name="hand_points_range",
            ),
            models.CheckConstraint(
                condition=Q(kind=HandKindChoice.MISDEAL)
                | (Q(bidder__isnull=False) & Q(bid__isnull=False)),
                name="played_hand_has_bid",
            ),
        ]

    def __str__(self) -> str:
        return f"Hand {self.number} of game {self.game_id}"


class GameChange(models.Model):
    """Every change to a game's hands or outcome: who, when, what before, what after."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="changes")
    hand_number = models.PositiveSmallIntegerField(null=True, blank=True)
    action = models.CharField(max_length=20, choices=HandAction.choices)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    by_label = models.CharField(
        max_length=120,
        blank=True,
        help_text=_("Who, when no account did it: a table code, the clock."),
    )
    at = models.DateTimeField(auto_now_add=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["game", "at", "id"]

    def __str__(self) -> str:
        return f"{self.get_action_display()} — game {self.game_id}, hand {self.hand_number}"
