"""The organiser's reports page: ask, watch (htmx polling), download through a role check,
rerun; a broker outage shows as a waiting job, never as an error page."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from kombu.exceptions import OperationalError

from kaiser_club.roles import Role
from tests.factories import member
from tests.queries import FIRST_SESSION_AND_USER, SESSION_AND_USER
from tests.tournaments.helpers import generate, make_event
from tournaments.choices import JobStatus
from tournaments.models import Event, Pairing, ReportJob
from tournaments.reports.tasks import render_report_task

from .helpers import pdf_text, text_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def event() -> Event:
    event = make_event(teams=4)
    generate(event)
    return event


@pytest.fixture
def organiser(client: Client, event: Event) -> Client:
    client.force_login(member(event.club, Role.ORGANISER))
    return client


def post(client: Client, event: Event, **data: Any) -> Any:
    return client.post(reverse("reports:page", args=[event.id]), data)


def test_asking_for_standings_makes_a_job_and_the_page_links_its_pdf(
    organiser: Client, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        answer = post(organiser, event, kind="standings")
    assert answer.status_code == 302
    job = ReportJob.objects.get(event=event)
    assert job.status == JobStatus.DONE
    assert job.base_url == "http://testserver/"
    page = organiser.get(reverse("reports:page", args=[event.id]))
    html = page.content.decode()
    download = reverse("reports:download", args=[event.id, job.id])
    assert download in html and "Download PDF" in html
    assert "hx-trigger" not in html  # nothing under way: no polling
    pdf = organiser.get(download)
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
    content = b"".join(pdf.streaming_content)  # type: ignore[attr-defined]
    assert "Standings" in text_of(content)
    assert 'filename="swiss-event-standings.pdf"' in pdf["Content-Disposition"]


def test_each_kind_can_be_asked_for_from_the_page(
    organiser: Client, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    round_ = event.round_set.get()
    pairing = Pairing.objects.filter(event=event, game__isnull=False).first()
    assert pairing is not None
    table = event.tables.first()
    assert table is not None
    with django_capture_on_commit_callbacks(execute=True):
        post(organiser, event, kind="round_tables", round=round_.id)
        post(organiser, event, kind="blank_sheets", round=round_.id)
        post(organiser, event, kind="score_sheet", game=pairing.game_id)
        post(organiser, event, kind="blank_sheets", game=pairing.game_id)
        post(organiser, event, kind="table_cards", table=table.id)
        post(organiser, event, kind="table_cards")
    jobs = {(j.kind, j.subject): j for j in ReportJob.objects.filter(event=event)}
    assert set(jobs) == {
        ("round_tables", "round-1"),
        ("blank_sheets", "round-1"),
        ("score_sheet", f"game-{pairing.game_id}"),
        ("blank_sheets", f"game-{pairing.game_id}"),
        ("table_cards", f"table-{table.number}"),
        ("table_cards", "all"),
    }
    assert all(j.status == JobStatus.DONE for j in jobs.values())
    assert "http://testserver/t/" in pdf_text(jobs[("table_cards", "all")]).replace("\n", "")


def test_a_bad_request_is_a_message_not_an_error(organiser: Client, event: Event) -> None:
    answer = post(organiser, event, kind="round_tables")
    assert answer.status_code == 302
    page = organiser.get(answer["Location"])
    assert "Choose the round whose tables to print." in page.content.decode()
    other = make_event(teams=2)
    generate(other)
    answer = post(organiser, event, kind="round_tables", round=other.round_set.get().id)
    assert "That is not part of this event" in organiser.get(answer["Location"]).content.decode()
    assert not ReportJob.objects.exists()


def test_with_redis_down_the_page_says_the_job_waits_for_the_runner(
    organiser: Client,
    event: Event,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(render_report_task, "apply_async", refuse)
    with django_capture_on_commit_callbacks(execute=True):
        answer = post(organiser, event, kind="standings")
    assert answer.status_code == 302
    job = ReportJob.objects.get(event=event)
    assert job.status == JobStatus.QUEUED
    partial = organiser.get(reverse("reports:jobs", args=[event.id]), HTTP_HX_REQUEST="true")
    html = partial.content.decode()
    assert "Waiting for the job runner" in html
    assert 'hx-trigger="every 2s"' in html  # the page keeps watching
    assert "Send again" in html


def test_a_failed_job_shows_its_error_and_the_rerun_button_works(
    organiser: Client, event: Event, django_capture_on_commit_callbacks: Any
) -> None:
    job = ReportJob.objects.create(
        event=event, kind="standings", status=JobStatus.FAILED, error="The printer caught fire."
    )
    html = organiser.get(reverse("reports:page", args=[event.id])).content.decode()
    assert "The printer caught fire." in html and "Rerun" in html
    with django_capture_on_commit_callbacks(execute=True):
        answer = organiser.post(reverse("reports:rerun", args=[event.id, job.id]))
    assert answer.status_code == 302
    job.refresh_from_db()
    assert job.status == JobStatus.DONE


def test_a_file_not_ready_is_not_found(organiser: Client, event: Event) -> None:
    job = ReportJob.objects.create(event=event, kind="standings")
    assert organiser.get(reverse("reports:download", args=[event.id, job.id])).status_code == 404
    other = make_event(teams=2)
    foreign = ReportJob.objects.create(event=other, kind="standings")
    assert (
        organiser.get(reverse("reports:download", args=[event.id, foreign.id])).status_code == 404
    )


@pytest.mark.parametrize("size", [3, 30])
def test_the_page_costs_the_same_queries_at_any_size(
    organiser: Client, event: Event, size: int, django_assert_num_queries: Any
) -> None:
    for n in range(size):  # a report has one job under way at a time: each its own subject
        ReportJob.objects.create(
            event=event,
            kind="standings",
            status=JobStatus.FAILED if n % 2 else JobStatus.QUEUED,
            error="x",
            round=event.round_set.get() if n % 3 == 0 else None,
            subject=f"round-1-{n}" if n % 3 == 0 else f"copy-{n}",
        )
    # session, user (tests/queries.py), clubs seen, event, role, jobs, rounds, games, tables
    with django_assert_num_queries(FIRST_SESSION_AND_USER + 7):
        assert organiser.get(reverse("reports:page", args=[event.id])).status_code == 200
    with django_assert_num_queries(SESSION_AND_USER + 4):
        assert organiser.get(reverse("reports:jobs", args=[event.id])).status_code == 200
