"""PDF reports the organiser asks for, each first a row here so that a broker outage loses
nothing: the row is the job; the Celery message only says "look at job N".

A job's lifecycle: ``queued`` (``sent_at`` says when it was last handed to the broker; empty
while the broker could not be reached), ``running`` (claimed by one worker until
``lease_until``), then ``done`` (``file`` is the PDF, relative to ``MEDIA_ROOT``) or
``failed`` (``error`` is a sentence for the organiser). The beat sweep re-sends queued jobs
nobody started and takes back running jobs whose worker died (an expired lease).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from kaiser_club.sentences import Said, read_back, render, stored
from scoring.models import Game

from ..choices import JobStatus
from .events import Event
from .rounds import Round, Table


class ReportKind(models.TextChoices):
    STANDINGS = "standings", _("Standings")
    BRACKET = "bracket", _("Bracket")
    ROUND_TABLES = "round_tables", _("Round tables")
    SCORE_SHEET = "score_sheet", _("Score sheet")
    BLANK_SHEETS = "blank_sheets", _("Blank score sheets")
    TABLE_CARDS = "table_cards", _("Table cards")


class ReportJob(models.Model):
    # Looked up by the reportjob_subject index (event, kind, subject).
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="report_jobs", db_index=False
    )
    kind = models.CharField(max_length=20, choices=ReportKind.choices)
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    subject = models.CharField(
        max_length=40,
        blank=True,
        help_text=_("What the report is of (round-3, game-17…): one file per kind and subject."),
    )
    base_url = models.CharField(
        max_length=200, blank=True, help_text=_("The site's address as the organiser used it.")
    )
    language = models.CharField(
        max_length=10, blank=True, help_text=_("The organiser's language when they asked.")
    )

    status = models.CharField(max_length=10, choices=JobStatus.choices, default=JobStatus.QUEUED)
    attempts = models.PositiveSmallIntegerField(default=0)
    # Why it failed, in English (admin, logs) and as a sentence rendered in the language of
    # whoever reads it (kaiser_club.sentences), not the worker's.
    error = models.TextField(blank=True)
    error_said = models.JSONField(null=True, blank=True)
    file = models.CharField(max_length=300, blank=True, help_text=_("Under MEDIA_ROOT."))
    replaced = models.BooleanField(
        default=False, help_text=_("A newer report of the same kind and subject took its file.")
    )
    pages = models.PositiveIntegerField(null=True, blank=True)
    render_ms = models.PositiveIntegerField(null=True, blank=True)

    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(
        null=True, blank=True, help_text=_("Last handed to the broker; empty while it was down.")
    )
    send_error = models.CharField(max_length=300, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    lease_until = models.DateTimeField(null=True, blank=True)
    claimed_by = models.CharField(max_length=120, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["status", "sent_at"], name="reportjob_status_sent"),
            models.Index(fields=["event", "kind", "subject"], name="reportjob_subject"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=[k.value for k in ReportKind]), name="reportjob_kind_known"
            ),
            models.CheckConstraint(
                condition=~Q(status=JobStatus.DONE) | ~Q(file=""),
                name="reportjob_done_has_file",
            ),
            # The same report asked for twice is one job: the second request finds the first.
            models.UniqueConstraint(
                fields=["event", "kind", "subject"],
                condition=Q(status__in=[JobStatus.QUEUED, JobStatus.RUNNING]),
                name="reportjob_one_active_per_subject",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.subject} of event {self.event_id}: {self.status}"

    @property
    def finished(self) -> bool:
        return self.status in (JobStatus.DONE, JobStatus.FAILED)

    def failed_because(self, error: Said) -> dict[str, Any]:
        """The fields that say why the job failed: in English and as a sentence."""
        with translation.override("en"):
            english = render(error)[:2000]
        return {"error": english, "error_said": stored(error)}

    @property
    def error_text(self) -> str:
        """Why the job failed, in the active language."""
        return read_back(self.error_said, self.error)
