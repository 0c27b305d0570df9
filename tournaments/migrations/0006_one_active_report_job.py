"""At most one queued or running job per report (event, kind and subject), enforced by the
database.

report_request already returned the job under way rather than making a second under the
event's lock, but a failed job rerun after the same report was asked for again made two. Should
a report have more than one such job, the one running is kept (else the oldest queued) and the
others are marked failed, naming the job that makes the report, so the constraint can be added.
"""

from django.db import migrations, models
from django.utils import timezone

ACTIVE = ["queued", "running"]


def fail_extra_active_jobs(apps, schema_editor):
    ReportJob = apps.get_model("tournaments", "ReportJob")
    kept: dict[tuple[int, str, str], int] = {}
    extra: dict[int, int] = {}
    active = ReportJob.objects.filter(status__in=ACTIVE).order_by("id")
    # The running job first (its worker is at it), then the oldest queued.
    for job in sorted(active, key=lambda j: (j.status != "running", j.id)):
        report = (job.event_id, job.kind, job.subject)
        if report in kept:
            extra[job.id] = kept[report]
        else:
            kept[report] = job.id
    now = timezone.now()
    for job_id, kept_id in extra.items():
        ReportJob.objects.filter(id=job_id).update(
            status="failed",
            finished_at=now,
            lease_until=None,
            error=f"The same report was asked for twice; job {kept_id} makes it.",
        )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0005_one_generation_at_a_time"),
    ]

    operations = [
        migrations.RunPython(fail_extra_active_jobs, migrations.RunPython.noop, elidable=True),
        migrations.AddConstraint(
            model_name="reportjob",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status__in", ["queued", "running"])),
                fields=("event", "kind", "subject"),
                name="reportjob_one_active_per_subject",
            ),
        ),
    ]
