"""Work done for the organiser in the background, and what was undone on their word."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import translation

from kaiser_club.sentences import Said, read_back, render, stored

from ..choices import JobStatus
from .events import Event
from .rounds import Pairing


class GenerationJob(models.Model):
    """A request to generate the next round (or an event's bracket), run by a Celery task."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="jobs")
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=JobStatus.choices, default=JobStatus.QUEUED)
    # What the job says, in English (admin, logs) and as a sentence (template and parameters,
    # kaiser_club.sentences) rendered in the language of whoever reads it, not the worker's.
    error = models.TextField(blank=True)
    error_said = models.JSONField(null=True, blank=True)
    summary = models.CharField(max_length=300, blank=True)
    summary_said = models.JSONField(null=True, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # One generation at a time: a second request finds the first (generation_request).
            models.UniqueConstraint(
                fields=["event"],
                condition=Q(status__in=[JobStatus.QUEUED, JobStatus.RUNNING]),
                name="generationjob_one_active_per_event",
            )
        ]

    def __str__(self) -> str:
        return f"Generation {self.id} of {self.event_id}: {self.status}"

    @property
    def finished(self) -> bool:
        return self.status in (JobStatus.DONE, JobStatus.FAILED)

    def tell(self, *, summary: Said | None = None, error: Said | None = None) -> None:
        """Keeps what the job says as a sentence, to be read in the reader's language, and
        in English."""
        with translation.override("en"):
            if summary is not None:
                self.summary = render(summary)[:300]
                self.summary_said = stored(summary)
            if error is not None:
                self.error = render(error)
                self.error_said = stored(error)

    @property
    def summary_text(self) -> str:
        """The summary in the active language."""
        return read_back(self.summary_said, self.summary)

    @property
    def error_text(self) -> str:
        """Why the job failed, in the active language."""
        return read_back(self.error_said, self.error)


class Rollback(models.Model):
    """Later bracket games taken back so that an earlier result could change."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rollbacks")
    pairing = models.ForeignKey(Pairing, on_delete=models.CASCADE, related_name="rollbacks")
    undone = models.JSONField(help_text="The later games as they were: code, teams, scores.")
    reason = models.CharField(max_length=300, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"Rollback after {self.pairing}"
