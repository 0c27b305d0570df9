"""Celery tasks of the events app: they take ids and call one service."""

from celery import shared_task

from .services.generation import generation_run
from .services.results import resync_missed


@shared_task(name="tournaments.generate", acks_late=True, ignore_result=True)
def generate_task(job_id: int) -> None:
    """Generates what a GenerationJob asks for; safe to deliver twice."""
    generation_run(job_id=job_id)


@shared_task(name="tournaments.sync_results", ignore_result=True)
def sync_results_task() -> int:
    """Beat: carries on any finished game whose pairing missed it (a crash between the game's
    commit and the bracket's advance). Returns how many were synced."""
    return resync_missed()
