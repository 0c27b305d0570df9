"""Sign-ups from the players themselves: a registration (a partnership, or one player in a
progressive event) waits for a place, for the organiser's word, or holds an entry; each of its
players has a private link to their own page, and the messages they are sent are kept."""

from __future__ import annotations

import secrets

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from kaiser_club.models import Player
from kaiser_club.sentences import read_back

from .entries import Entry
from .events import Event

EMAIL_MAX = 254


def new_secret() -> str:
    """The secret of a private link: 256 random bits."""
    return secrets.token_urlsafe(32)


class RegistrationStatus(models.TextChoices):
    PENDING = "pending", _("Waiting for the organiser")
    REGISTERED = "registered", _("Registered")
    WAITING = "waiting", _("On the waiting list")
    REFUSED = "refused", _("Refused")
    WITHDRAWN = "withdrawn", _("Withdrawn")


# A sign-up in one of these holds, or may yet hold, a place: its e-mails cannot sign up again.
ACTIVE_STATUSES = (
    RegistrationStatus.PENDING,
    RegistrationStatus.REGISTERED,
    RegistrationStatus.WAITING,
)


class Registration(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    name = models.CharField(max_length=160, blank=True)
    status = models.CharField(max_length=12, choices=RegistrationStatus.choices)
    # The order of the waiting list: the lowest waits first (the organiser may reorder).
    waiting_order = models.PositiveIntegerField(null=True, blank=True)
    entry = models.OneToOneField(
        Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="registration"
    )
    language = models.CharField(max_length=8, default="en")
    base_url = models.CharField(max_length=200, blank=True)
    # Why it was refused, as a sentence read back in the reader's language (kaiser_club.sentences).
    refusal_said = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        ordering = ["event", "created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=[s.value for s in RegistrationStatus]),
                name="registration_status_known",
            ),
            models.UniqueConstraint(
                fields=["event", "waiting_order"],
                condition=Q(waiting_order__isnull=False),
                name="registration_waiting_order_once",
            ),
        ]

    def __str__(self) -> str:
        return self.name or f"Registration {self.id}"

    @property
    def refusal(self) -> str:
        """Why it was refused, in the active language ("" when no reason was kept)."""
        return read_back(self.refusal_said, "")


class Registrant(models.Model):
    """One player of a registration: who they are, their private link, and whether they want
    word by e-mail."""

    # registrant_position_once leads with it: no index of its own.
    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="registrants", db_index=False
    )
    position = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=120)
    email = models.EmailField(max_length=EMAIL_MAX)
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    secret = models.CharField(max_length=64, unique=True, default=new_secret)
    emails_stopped = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("registrant")
        verbose_name_plural = _("registrants")
        ordering = ["registration", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["registration", "position"], name="registrant_position_once"
            )
        ]

    def __str__(self) -> str:
        return self.name


class PushSubscription(models.Model):
    """A browser's Web Push subscription, given on the registrant's own page."""

    # pushsubscription_endpoint_once leads with it: no index of its own.
    registrant = models.ForeignKey(
        Registrant, on_delete=models.CASCADE, related_name="push_subscriptions", db_index=False
    )
    endpoint = models.URLField(max_length=500)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["registrant", "endpoint"], name="pushsubscription_endpoint_once"
            )
        ]

    def __str__(self) -> str:
        return f"Push to {self.registrant}"


class MessageChannel(models.TextChoices):
    EMAIL = "email", _("E-mail")
    PUSH = "push", _("Browser notification")


class MessageStatus(models.TextChoices):
    QUEUED = "queued", _("Queued")
    SENT = "sent", _("Sent")
    FAILED = "failed", _("Failed")


class OutboxMessage(models.Model):
    """One message to one registrant about one change, written in the transaction that made
    the change and sent by a Celery task once it has committed. ``key`` names the change
    (``received``, ``round-12``, ``final``…): a change is told at most once per channel."""

    registrant = models.ForeignKey(Registrant, on_delete=models.CASCADE, related_name="messages")
    channel = models.CharField(max_length=8, choices=MessageChannel.choices)
    key = models.CharField(max_length=40)
    subscription = models.ForeignKey(
        PushSubscription, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    subject = models.CharField(max_length=200)
    body = models.TextField()
    status = models.CharField(
        max_length=8, choices=MessageStatus.choices, default=MessageStatus.QUEUED
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["registrant", "channel", "key"],
                condition=Q(subscription__isnull=True),
                name="outboxmessage_once",
            ),
            models.UniqueConstraint(
                fields=["subscription", "key"],
                condition=Q(subscription__isnull=False),
                name="outboxmessage_push_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.channel} {self.key} to {self.registrant}"
