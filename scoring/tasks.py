from celery import shared_task

from .services import clock_sweep


@shared_task(name="scoring.clock_sweep", ignore_result=True)
def clock_sweep_task() -> list[int]:
    """Run by beat every few seconds: calls time on every game past its deadline."""
    return clock_sweep()
