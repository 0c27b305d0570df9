"""The reports part of the roles matrix's world (tests/test_roles_matrix.py): a done report
with a file to download, and a failed one to rerun, in the world's event."""

from __future__ import annotations

from typing import Any

from django.utils import timezone

from tournaments.choices import JobStatus
from tournaments.models import ReportJob
from tournaments.reports.services import write_atomically

MATRIX_FILE = "reports/roles-matrix.pdf"  # one small file, rewritten by every case


def report_ids(ids: Any) -> dict[str, Any]:
    event_id = ids["event"]
    write_atomically(MATRIX_FILE, b"%PDF-1.4\n% the roles matrix's report\n")
    done = ReportJob.objects.create(
        event_id=event_id,
        kind="standings",
        status=JobStatus.DONE,
        file=MATRIX_FILE,
        attempts=1,
        finished_at=timezone.now(),
    )
    failed = ReportJob.objects.create(
        event_id=event_id,
        kind="bracket",
        status=JobStatus.FAILED,
        error="This event has no bracket yet: generate it first.",
        attempts=1,
    )
    return {"report": done.id, "failed_report": failed.id}
