"""From a job to HTML (Django templates) and from HTML to PDF (WeasyPrint).

The HTML carries everything it needs: the print CSS inline, fonts from the system (DejaVu, by
name, through fontconfig), QR codes as ``data:`` URIs. WeasyPrint is given a URL fetcher that
refuses anything else, so a report never reaches the network, whatever a team's name says.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone, translation

from kaiser_club.errors import InvalidInput
from kaiser_club.sentences import N_

from ..models import ReportJob, ReportKind
from . import selectors

# WeasyPrint reports each step of every render at INFO ("Step 2 - Fetching and parsing CSS"):
# noise in a worker's log. Its warnings (a refused URL, a CSS error) still show.
logging.getLogger("weasyprint.progress").setLevel(logging.WARNING)

TEMPLATES = {
    ReportKind.STANDINGS: "reports/standings.html",
    ReportKind.BRACKET: "reports/bracket.html",
    ReportKind.ROUND_TABLES: "reports/round_tables.html",
    ReportKind.SCORE_SHEET: "reports/score_sheet.html",
    ReportKind.BLANK_SHEETS: "reports/blank_sheets.html",
    ReportKind.TABLE_CARDS: "reports/table_cards.html",
}


def local_only_fetcher() -> Any:
    """WeasyPrint's URL fetcher for ``data:`` URIs only; any other URL is refused (WeasyPrint
    logs it and leaves the resource out)."""
    try:
        from weasyprint import URLFetcher  # WeasyPrint 68+
    except ImportError:  # pragma: no cover - older WeasyPrint: a plain function
        from weasyprint import default_url_fetcher  # type: ignore[attr-defined]

        def fetch(url: str, timeout: int = 10, ssl_context: Any = None) -> Any:
            if not url.startswith("data:"):
                raise ValueError(f"Reports load nothing from outside the document: {url}")
            return default_url_fetcher(url, timeout=timeout, ssl_context=ssl_context)

        return fetch
    return URLFetcher(allowed_protocols={"data"}, timeout=2)


def context_for(job: ReportJob) -> dict[str, Any]:
    """What the job's template shows (read now: a report is of the data as it is when made)."""
    kind = ReportKind(job.kind)
    event = job.event
    if kind is ReportKind.STANDINGS:
        data = selectors.standings_data(event=event)
    elif kind is ReportKind.BRACKET:
        data = selectors.bracket_data(event=event)
    elif kind is ReportKind.ROUND_TABLES:
        if job.round is None:
            raise InvalidInput(N_("This report needs a round."))
        data = selectors.round_tables_data(round_=job.round)
    elif kind is ReportKind.SCORE_SHEET:
        if job.game_id is None:
            raise InvalidInput(N_("This report needs a game."))
        data = selectors.score_sheet_data(event=event, game_id=job.game_id)
    elif kind is ReportKind.BLANK_SHEETS:
        data = selectors.blank_sheets_data(event=event, round_=job.round, game_id=job.game_id)
    else:
        data = selectors.table_cards_data(event=event, table=job.table, base_url=job.base_url)
    return {"event": event, "made_at": timezone.now(), "kind": kind, **data}


def html_for(job: ReportJob) -> str:
    """The job's HTML, in the language of the organiser who asked for it."""
    with translation.override(job.language or None):
        return render_to_string(TEMPLATES[ReportKind(job.kind)], context_for(job))


@dataclass(frozen=True)
class Pdf:
    content: bytes
    pages: int
    milliseconds: int


def pdf_from_html(html: str) -> Pdf:
    """The PDF of ``html`` (print CSS inline, no external resources)."""
    from weasyprint import HTML  # imported when first needed: web processes rarely render
    from weasyprint.text.fonts import FontConfiguration

    start = time.perf_counter()
    document = HTML(string=html, url_fetcher=local_only_fetcher()).render(
        font_config=FontConfiguration()
    )
    content = document.write_pdf()
    assert content is not None
    elapsed = int((time.perf_counter() - start) * 1000)
    return Pdf(content=content, pages=len(document.pages), milliseconds=elapsed)
