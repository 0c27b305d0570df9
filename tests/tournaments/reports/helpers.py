"""Builders for the reports tests: a small event with played games, running a report job the
way a page would (Celery eager, on commit), and reading a PDF's text with pypdf."""

from __future__ import annotations

import io
from typing import Any

from django.test import TestCase
from pypdf import PdfReader

from scoring.models import Game
from tests.scoring.hands import EW, NS, E, N, S, played, record
from tests.tournaments.helpers import generate, make_event, win_for
from tournaments.choices import JobStatus
from tournaments.models import Event, Pairing, ReportJob
from tournaments.reports import services


def ask(event: Event, kind: str, **kwargs: Any) -> ReportJob:
    """Asks for a report and lets the (eager) task run when the transaction commits."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        job = services.report_request(event=event, kind=kind, **kwargs)
    job.refresh_from_db()
    return job


def pdf_text(job: ReportJob) -> str:
    assert job.status == JobStatus.DONE, job.error
    path = services.media_root() / job.file
    return text_of(path.read_bytes())


def text_of(content: bytes) -> str:
    reader = PdfReader(io.BytesIO(content))
    return "\n".join(page.extract_text() or "" for page in reader.pages)


def page_count(job: ReportJob) -> int:
    return len(PdfReader(services.media_root() / job.file).pages)


def swiss_after_round_one(teams: int = 4) -> tuple[Event, list[Pairing]]:
    """A Swiss event whose first round is played: the home team wins every game."""
    event = make_event(teams=teams, format="swiss")
    generate(event)
    pairings = list(
        Pairing.objects.filter(event=event, round__number=1, game__isnull=False)
        .select_related("home", "away")
        .order_by("table__number")
    )
    for p in pairings:
        assert p.home is not None
        win_for(p, p.home)
    return event, pairings


def three_hands(game: Game) -> None:
    """Hand 1: N bids 7♣ and N–S take all 8 tricks with the 5♥ and 3♠: 8 + 5 − 3 = +10.
    Hand 2: E bids 8♣, E–W take 5 tricks with the 3♠ (2 points): failed, −8; N–S take 3 tricks
    and the 5♥: +8. Hand 3: S bids 9 no-trump, N–S take 7 tricks and the 5♥ (12): made at
    no-trump, doubled, +24; E–W take 1 trick and the 3♠: −2. Totals: N–S 42, E–W −10
    (docs/rules.md, "Scoring a hand")."""
    record(game, played(N, 7, 8, NS, NS))
    record(game, played(E, 8, 5, NS, EW))
    from scoring.rules import Contract

    record(game, played(S, 9, 7, NS, EW, contract=Contract.NO_TRUMP))
