"""The reports' Celery tasks: they take ids and call one service.

``render`` acknowledges its message only when it has finished (``acks_late``) and puts it back
if its worker process dies (``reject_on_worker_lost``): a PDF cut off by a killed worker is
made again. Running it twice for one job is harmless (the job is claimed once).
"""

from __future__ import annotations

from celery import shared_task

from .services import report_run, report_sweep


@shared_task(
    name="reports.render",
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
)
def render_report_task(job_id: int) -> None:
    report_run(job_id=job_id)


@shared_task(name="reports.sweep", ignore_result=True)
def sweep_reports_task() -> dict[str, int]:
    """Beat: re-sends report jobs never started and takes back those whose worker died."""
    return report_sweep()
