"""The standings as django-tables2 tables: sortable by any column, and exported as CSV from
the same columns (``as_values``), so the file says what the page says."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import django_tables2 as tables
from django.http import HttpResponse
from django.urls import reverse
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from kaiser_club.spreadsheet import CsvWriter
from scoring.results import score_change

from ..standings.rows import StandingsRow
from . import marks
from .wording import NowPlaying, placing_label

NUM = {"th": {"class": "num"}, "td": {"class": "num"}}
ANY_ID = 987654321  # reversed once, then replaced by each row's id


class FastBody:
    """The table's body as one string, built in Python: django-tables2 renders cell by cell
    through the template engine and inspects each render method's signature for every cell
    (about a millisecond per row here), too slow for a 512-team table polled by a hall. The
    header (sort links) is still django-tables2's; cells use the same ``render_*`` methods
    (each takes the record) or the record's attribute; CSV still goes through ``as_values``."""

    def body_html(self) -> SafeString:
        table: Any = self
        columns = list(table.columns)
        plan = []
        for column in columns:
            render = getattr(table, f"render_{column.name}", None)
            css = column.column.attrs.get("td", {}).get("class", "")
            opening = f'<td class="{css}">' if css else "<td>"
            plan.append((column.name, render, opening))
        lines = []
        for bound in table.rows:
            record = bound.record
            css = self.row_class(record)
            cells = []
            for name, render, opening in plan:
                value = render(record) if render else getattr(record, name, "")
                cells.append(f"{opening}{conditional_escape('' if value is None else value)}</td>")
            lines.append(f'<tr class="{css}">' if css else "<tr>")
            lines.append("".join(cells))
            lines.append("</tr>")
        return mark_safe("".join(lines))  # every cell escaped above

    def row_class(self, record: StandingsRow) -> str:
        return ""

    def legend(self) -> list[str]:
        """What the marks of the rows shown mean (public/_table.html prints it under them)."""
        table: Any = self
        return marks.legend(table.data)

    def name_with_note(self, record: StandingsRow, url: str | None) -> SafeString:
        note = marks.name_note(record)
        suffix = format_html(' <small class="muted">{}</small>', note) if note else ""
        if url is None:
            return format_html("{}{}", record.name, suffix)
        return format_html('<a href="{}">{}</a>{}', url, record.name, suffix)

    def render_wins(self, record: StandingsRow) -> SafeString:
        mark = marks.wins_mark(record)
        if not mark:
            return format_html("{}", record.wins)
        return format_html('{}<sup class="mark">{}</sup>', record.wins, mark)

    def value_wins(self, record: StandingsRow) -> int:
        return record.wins


class StandingsTable(FastBody, tables.Table):
    """Team standings (or, with ``players=True``, individual standings)."""

    place = tables.Column(verbose_name="#", attrs=NUM)
    name = tables.Column(verbose_name=_("Team"))
    games = tables.Column(verbose_name=_("Games"), attrs=NUM)
    wins = tables.Column(verbose_name=_("Won"), attrs=NUM)
    wins_on_time = tables.Column(verbose_name=_("Won on time"), attrs=NUM, visible=False)
    losses = tables.Column(verbose_name=_("Lost"), attrs=NUM)
    win_pct = tables.Column(verbose_name=_("Win %"), attrs=NUM)
    points_for = tables.Column(verbose_name=_("For"), attrs=NUM)
    points_against = tables.Column(verbose_name=_("Against"), attrs=NUM)
    point_difference = tables.Column(verbose_name=_("Diff."), attrs=NUM)
    buchholz = tables.Column(verbose_name=_("Opp. wins"), attrs=NUM)
    seed = tables.Column(verbose_name=_("Seed"), attrs=NUM, default="")
    now = tables.Column(
        verbose_name=_("Playing now"),
        empty_values=(),
        orderable=False,
        exclude_from_export=True,
        attrs={"td": {"class": "now"}},
    )

    class Meta:
        template_name = "public/_table.html"
        attrs = {"class": "grid standings"}
        order_by_field = "sort"

    def __init__(
        self,
        data: Sequence[StandingsRow],
        *,
        event_id: int,
        order_by_metrics: Sequence[str],
        now_playing: NowPlaying,
        players: bool = False,
        **kwargs: Any,
    ) -> None:
        extra_exclude = [] if "buchholz" in order_by_metrics else ["buchholz"]
        super().__init__(data, exclude=extra_exclude, **kwargs)
        self.event_id = event_id
        self.now_playing = now_playing
        self.players = players
        if players:
            self.columns["name"].column.verbose_name = _("Player")

    def row_class(self, record: StandingsRow) -> str:
        return "withdrawn" if record.withdrawn else ""

    def render_place(self, record: StandingsRow) -> str:
        return record.place_text

    def value_place(self, record: StandingsRow) -> str:
        return record.place_text  # "5=" in the file too: a shared place says so

    def render_name(self, record: StandingsRow) -> SafeString:
        if self.players and not record.public:
            return self.name_with_note(record, None)
        return self.name_with_note(record, self.link(record.id))

    def link(self, record_id: int) -> str:
        """The row's page: reversed once per table (reverse() per row costs ~50 µs)."""
        if not hasattr(self, "_link"):
            if not self.players:
                name, args = "public:team", [self.event_id, ANY_ID]
            elif self.event_id:
                name, args = "public:player", [self.event_id, ANY_ID]
            else:
                name, args = "players:detail", [ANY_ID]  # a season: the player's own page
            self._link = reverse(name, args=args)
        return self._link.replace(str(ANY_ID), str(record_id))

    def value_name(self, record: StandingsRow) -> str:
        return record.name

    def render_win_pct(self, record: StandingsRow) -> str:
        return f"{round(record.win_pct * 100)}%" if record.games else "–"

    def value_win_pct(self, record: StandingsRow) -> str:
        return f"{record.win_pct:.3f}"

    def render_point_difference(self, record: StandingsRow) -> str:
        value = record.point_difference
        return score_change(value) if value else "0"

    def value_point_difference(self, record: StandingsRow) -> int:
        return record.point_difference

    def render_now(self, record: StandingsRow) -> str:
        found = self.now_playing.players if self.players else self.now_playing.entries
        return found.get(record.id, "")


class PlacingsTable(FastBody, tables.Table):
    """Final placings of an elimination bracket (or of pools then a knockout): "#" as every
    surface prints it ("5=" for a shared fifth), "Place" as the band it shares."""

    place = tables.Column(verbose_name="#", attrs=NUM, empty_values=(), orderable=False)
    placing = tables.Column(verbose_name=_("Place"), empty_values=(), orderable=False)
    name = tables.Column(verbose_name=_("Team"))
    wins = tables.Column(verbose_name=_("Won"), attrs=NUM)
    losses = tables.Column(verbose_name=_("Lost"), attrs=NUM)
    points_for = tables.Column(verbose_name=_("For"), attrs=NUM)
    points_against = tables.Column(verbose_name=_("Against"), attrs=NUM)
    seed = tables.Column(verbose_name=_("Seed"), attrs=NUM, default="")
    now = tables.Column(
        verbose_name=_("Playing now"),
        empty_values=(),
        orderable=False,
        exclude_from_export=True,
        attrs={"td": {"class": "now"}},
    )

    class Meta:
        template_name = "public/_table.html"
        attrs = {"class": "grid standings placings"}
        order_by_field = "sort"

    def __init__(
        self, data: Sequence[StandingsRow], *, event_id: int, now_playing: NowPlaying, **kwargs: Any
    ) -> None:
        super().__init__(data, **kwargs)
        self.event_id = event_id
        self.now_playing = now_playing

    def render_place(self, record: StandingsRow) -> str:
        return record.place_text or "–"

    def value_place(self, record: StandingsRow) -> str:
        return record.place_text

    def render_placing(self, record: StandingsRow) -> str:
        return placing_label(record.placing) or str(_("still playing"))

    def value_placing(self, record: StandingsRow) -> str:
        return placing_label(record.placing)

    def render_name(self, record: StandingsRow) -> SafeString:
        if not hasattr(self, "_link"):
            self._link = reverse("public:team", args=[self.event_id, ANY_ID])
        return self.name_with_note(record, self._link.replace(str(ANY_ID), str(record.id)))

    def value_name(self, record: StandingsRow) -> str:
        return record.name

    def render_now(self, record: StandingsRow) -> str:
        return self.now_playing.entries.get(record.id, "")


def csv_response(filename: str, sections: Iterable[tuple[str, tables.Table]]) -> HttpResponse:
    """One CSV file from one or more tables. Several tables (the pools, then the final
    placings) are written one after the other, each under its own header, a blank line
    between them; a first column names the table of each line."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = CsvWriter(response)  # the app's one CSV writer: no cell runs as a formula
    sections = list(sections)
    several = len(sections) > 1
    for index, (label, table) in enumerate(sections):
        values = list(table.as_values())
        header, body = values[0], values[1:]
        if several and index:
            writer.writerow([])
        writer.writerow(([str(_("Table"))] if several else []) + header)
        for line in body:
            writer.writerow(([label] if several else []) + line)
    return response
