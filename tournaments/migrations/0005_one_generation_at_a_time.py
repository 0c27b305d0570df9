"""At most one queued or running generation job per event, enforced by the database.

generation_request already refused a second job under the event's lock; the constraint makes
that hold for any writer. Should an event have more than one such job (none is expected), the
one running is kept (else the oldest queued) and the others are marked failed with a sentence
saying why, so the constraint can be added.
"""

from django.db import migrations, models
from django.utils import timezone

ACTIVE = ["queued", "running"]


def fail_extra_active_jobs(apps, schema_editor):
    GenerationJob = apps.get_model("tournaments", "GenerationJob")
    kept: dict[int, int] = {}
    extra: list[int] = []
    active = GenerationJob.objects.filter(status__in=ACTIVE).order_by("event_id", "id")
    # The running job first (its worker is at it), then the oldest queued.
    for job in sorted(active, key=lambda j: (j.event_id, j.status != "running", j.id)):
        if job.event_id in kept:
            extra.append(job.id)
        else:
            kept[job.event_id] = job.id
    if extra:
        GenerationJob.objects.filter(id__in=extra).update(
            status="failed",
            finished_at=timezone.now(),
            error=(
                "Another generation of this event was already under way; "
                "ask again once it has finished."
            ),
        )


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0004_drop_orphan_bracket_games"),
    ]

    operations = [
        migrations.RunPython(fail_extra_active_jobs, migrations.RunPython.noop, elidable=True),
        migrations.AddConstraint(
            model_name="generationjob",
            constraint=models.UniqueConstraint(
                condition=models.Q(("status__in", ["queued", "running"])),
                fields=("event",),
                name="generationjob_one_active_per_event",
            ),
        ),
    ]
