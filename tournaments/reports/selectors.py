"""Reads for the reports: what each PDF shows, and the jobs on the organiser's page.

Each function costs a fixed number of queries, however large the event (the standings come
from ``tournaments.standings``, which is built that way).
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from kaiser_club.errors import InvalidInput, NotFound
from kaiser_club.sentences import N_
from scoring.choices import TeamChoice
from scoring.models import Game, Hand
from scoring.rows_and_rules import game_rules
from scoring.rules import KaiserBid, NoTrump, RuleSet, StealTheFive
from scoring.score_sheet import score_sheet

from ..choices import ResultKind, SlotSide, Tiebreak
from ..game_result import pairing_result
from ..models import Event, Pairing, ReportJob, Round, Table
from ..naming import first_stage_title, game_name, round_name
from ..public import marks
from ..qr import qr_svg
from ..rules_form import preset_title
from ..selectors import PAIRING_RELATED
from ..services.tables import display_code, table_path
from ..standings import event_tables

PAIRING_PEOPLE = [
    *PAIRING_RELATED,
    "round",
    "game__north",
    "game__east",
    "game__south",
    "game__west",
]

SEATS = ("N", "E", "S", "W")


# --- The organiser's page ------------------------------------------------------------------


def jobs_of(*, event: Event, limit: int = 50) -> QuerySet[ReportJob]:
    """The event's latest report jobs, newest first (one query)."""
    return (
        ReportJob.objects.filter(event=event)
        .select_related("round", "table", "requested_by")
        .order_by("-created_at", "-id")[:limit]
    )


def job_of(*, event: Event, job_id: int) -> ReportJob:
    job = ReportJob.objects.select_related("event").filter(event=event, id=job_id).first()
    if job is None:
        raise NotFound(N_("There is no report %(job_id)s in this event.", job_id=job_id))
    return job


def choices_of(*, event: Event) -> dict[str, Any]:
    """What the organiser can ask a report of: rounds, games and tables (three queries)."""
    rounds = list(Round.objects.filter(event=event).order_by("number"))
    games = list(
        Pairing.objects.filter(event=event, game__isnull=False)
        .select_related("table", "round", "home", "away", "home_team", "away_team")
        .order_by("-round__number", "table__number", "id")
    )
    tables = list(Table.objects.filter(event=event).order_by("number"))
    return {
        "rounds": rounds,
        "games": [(p.game_id, pairing_label(p)) for p in _with_event(games, event)],
        "tables": tables,
        "has_bracket": event.is_bracket or any(p.match_number for p in games),
    }


def game_labels(*, event: Event, game_ids: list[int]) -> dict[int, str]:
    """The games' names as the reports page lists them, by game id (one query)."""
    if not game_ids:
        return {}
    pairings = list(
        Pairing.objects.filter(event=event, game_id__in=game_ids).select_related(
            "table", "round", "home", "away", "home_team", "away_team"
        )
    )
    return {p.game_id: pairing_label(p) for p in _with_event(pairings, event) if p.game_id}


def _with_event(pairings: list[Pairing], event: Event) -> list[Pairing]:
    for p in pairings:  # the one event already read, not one query per game
        p.event = event
    return pairings


def pairing_label(p: Pairing) -> str:
    where = _("Table %(number)s") % {"number": p.table.number} if p.table else game_name(p, p.event)
    return _("%(round)s · %(where)s · %(home)s against %(away)s") % {
        "round": round_name(p.round, p.event),
        "where": where,
        "home": side_name(p, SlotSide.HOME),
        "away": side_name(p, SlotSide.AWAY),
    }


def side_name(p: Pairing, side: str) -> str:
    entry = p.home if side == SlotSide.HOME else p.away
    team = p.home_team if side == SlotSide.HOME else p.away_team
    if entry is not None:
        return entry.name
    if team is not None:
        return str(team)
    return "—"


# --- Standings ------------------------------------------------------------------------------


@dataclass
class StandingsSection:
    title: str
    rows: list[dict[str, Any]]
    individual: bool = False


def _row(row: Any) -> dict[str, Any]:
    """A standings row as the template reads it, its place printed as every surface prints
    it ("5=" for a shared fifth; "–" for a team still playing in a bracket), its marks as the
    public pages print them."""
    return {
        "place": row.place_text or "–",
        "name": row.name,
        "games": row.games,
        "wins": row.wins,
        "losses": row.losses,
        "note": marks.name_note(row),
        "wins_mark": marks.wins_mark(row),
        "points_for": row.points_for,
        "points_against": row.points_against,
        "difference": row.point_difference,
        "buchholz": row.buchholz,
        "withdrawn": row.withdrawn,
    }


def standings_data(*, event: Event) -> dict[str, Any]:
    """The standings PDF: the event's placings (``event_tables``, as every surface shows
    them); a pools event's pool tables first, then, once the knockout is drawn, the final
    placings."""
    found = event_tables(event=event)
    sections: list[StandingsSection] = []
    if found.kind == "players":
        players = [_row(r) for r in found.placings]
        sections.append(StandingsSection(_("Players"), players, individual=True))
    elif found.kind == "pools":
        for pool, rows in found.pools.items():
            sections.append(
                StandingsSection(_("Pool %(name)s") % {"name": pool}, [_row(r) for r in rows])
            )
        if found.knockout or not found.pools:
            title = _("Final placings") if found.knockout else ""
            sections.append(StandingsSection(title, [_row(r) for r in found.placings]))
    elif found.kind == "staged":
        stage = [_row(r) for r in found.first_stage]
        sections.append(StandingsSection(first_stage_title(event), stage))
        if found.knockout:
            placed = [_row(r) for r in found.placings]
            sections.append(StandingsSection(_("Final placings"), placed))
    elif found.kind == "placings":
        sections.append(StandingsSection(_("Final placings"), [_row(r) for r in found.placings]))
    else:
        sections.append(StandingsSection("", [_row(r) for r in found.placings]))
    labels = dict(Tiebreak.choices)
    order = [str(labels.get(name, name)) for name in found.order_by]
    pools = [row for rows in found.pools.values() for row in rows]
    shown = [*found.placings, *found.first_stage, *pools]
    return {
        "sections": sections,
        "legend": marks.legend(shown),
        "tiebreaks": order,
        "show_buchholz": "buchholz" in found.order_by,
        "by_bracket": found.kind == "placings",
    }


# --- The bracket ----------------------------------------------------------------------------

STAGE_ORDER = ["winners", "losers", "grand_final", "grand_final_reset", "third_place"]


@dataclass
class BracketColumn:
    title: str
    matches: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class BracketStage:
    title: str
    columns: list[BracketColumn] = field(default_factory=list)


def _stage_titles() -> dict[str, str]:
    return {
        "winners": _("Winners' bracket"),
        "losers": _("Losers' bracket"),
        "grand_final": _("Grand final"),
        "grand_final_reset": _("Grand final, reset game"),
        "third_place": _("Third place"),
        "": _("Bracket"),
    }


def bracket_data(*, event: Event) -> dict[str, Any]:
    rows = list(
        Pairing.objects.filter(event=event, match_number__isnull=False)
        .select_related("table", "round", "home", "away", "game")
        .order_by("round__number", "match_number")
    )
    if not rows:
        raise InvalidInput(N_("This event has no bracket yet: generate it first."))
    code_of = {r.id: game_name(r, event) or f"M{r.match_number}" for r in rows}
    feeds: dict[tuple[int, str], str] = {}
    for r in rows:
        if r.winner_to_id:
            feeds[(r.winner_to_id, r.winner_to_side)] = _("Winner of %s") % code_of[r.id]
        if r.loser_to_id:
            feeds[(r.loser_to_id, r.loser_to_side)] = _("Loser of %s") % code_of[r.id]
    titles = _stage_titles()
    stages: dict[str, BracketStage] = {}
    for r in rows:
        stage = stages.setdefault(r.stage, BracketStage(titles.get(r.stage, r.stage)))
        title = round_name(r.round, event)
        if not stage.columns or stage.columns[-1].title != title:
            stage.columns.append(BracketColumn(title))
        result = pairing_result(r)  # None for a bye
        sides = []
        for side, seat in ((SlotSide.HOME, TeamChoice.NS), (SlotSide.AWAY, TeamChoice.EW)):
            entry = r.home if side == SlotSide.HOME else r.away
            if entry is not None:
                name, known = entry.name, True
            elif r.is_bye:
                name, known = _("bye"), False
            else:
                name, known = feeds.get((r.id, side.value), "—"), False
            finished = result is not None and result.finished
            sides.append(
                {
                    "name": name,
                    "known": known,
                    "points": result.score_of(seat) if result is not None and finished else None,
                    "won": r.winner_side == side,
                }
            )
        stage.columns[-1].matches.append(
            {
                "code": code_of[r.id],
                "table": r.table.number if r.table else None,
                "sides": sides,
                "conditional": r.conditional,
                "cancelled": r.cancelled,
                "result": ""
                if r.result in (ResultKind.PLAYED, ResultKind.PENDING)
                else r.get_result_display(),
            }
        )
    ordered = [stages[s] for s in STAGE_ORDER if s in stages]
    ordered += [v for k, v in stages.items() if k not in STAGE_ORDER]
    return {"stages": ordered}


# --- A round's tables -----------------------------------------------------------------------


def round_tables_data(*, round_: Round) -> dict[str, Any]:
    pairings = list(
        Pairing.objects.filter(round=round_)
        .select_related(*PAIRING_PEOPLE)
        .order_by("table__number", "match_number", "id")
    )
    games, byes = [], []
    for p in pairings:
        if p.is_bye or (p.away_id is None and p.away_team_id is None):
            byes.append(side_name(p, SlotSide.HOME))
            continue
        games.append(
            {
                "table": p.table.number if p.table else None,
                "code": game_name(p, round_.event),
                "home": side_name(p, SlotSide.HOME),
                "away": side_name(p, SlotSide.AWAY),
                "home_players": _players(p.home_team),
                "away_players": _players(p.away_team),
                "first_dealer": _("N–S") if p.first_dealer_home else _("E–W"),
                "result": _result_text(p),
            }
        )
    return {"round": round_, "games": games, "byes": byes}


def _players(team: Any) -> str:
    if team is None:
        return ""
    return f"{team.player_one.name} & {team.player_two.name}"


def _result_text(p: Pairing) -> str:
    if p.cancelled:
        return _("cancelled")
    result = pairing_result(p)  # the game's result as every surface shows it
    if result is not None and result.finished:
        text = result.score_text
        return text if p.result == ResultKind.PLAYED else f"{text} ({p.get_result_display()})"
    if p.game is not None and p.game.hand_count:
        return _("playing: N–S %(ns)s · E–W %(ew)s") % {
            "ns": p.game.ns_score,
            "ew": p.game.ew_score,
        }
    return ""


# --- Score sheets ---------------------------------------------------------------------------


def _pairing_of_game(event: Event, game_id: int) -> Pairing:
    pairing = (
        Pairing.objects.filter(event=event, game_id=game_id).select_related(*PAIRING_PEOPLE).first()
    )
    if pairing is None or pairing.game is None:
        raise NotFound(N_("Game %(game_id)s is not a game of this event.", game_id=game_id))
    return pairing


def _seats(game: Game) -> list[dict[str, str]]:
    names = [_("North"), _("East"), _("South"), _("West")]
    players = [game.north, game.east, game.south, game.west]
    return [
        {"seat": names[i], "letter": SEATS[i], "name": players[i].name, "team": _team_of_seat(i)}
        for i in range(4)
    ]


def _team_of_seat(seat: int) -> str:
    return _("N–S") if seat % 2 == 0 else _("E–W")


def score_sheet_data(*, event: Event, game_id: int) -> dict[str, Any]:
    pairing = _pairing_of_game(event, game_id)
    game = pairing.game
    assert game is not None
    hands = list(Hand.objects.filter(game=game).order_by("number"))
    rules = game_rules(game)
    home, away = side_name(pairing, SlotSide.HOME), side_name(pairing, SlotSide.AWAY)
    result = pairing_result(pairing)  # the game's result as every surface shows it
    return {
        "pairing": pairing,
        "game": game,
        "table": pairing.table.number if pairing.table else None,
        "home": home,
        "away": away,
        "seats": _seats(game),
        "first_dealer": SEATS[game.first_dealer],
        "sheet": score_sheet(game, hands, paper=True),
        "rules": rules_summary(rules),
        "result": result,
        "said": result.sentence(home, away) if result is not None else "",
    }


def rules_summary(rules: RuleSet) -> list[str]:
    """The rule set in a few lines, for the foot of a paper score sheet."""
    lines = [
        _("Rules: %(title)s.") % {"title": preset_title(rules.name, rules.title)},
        _("Game to %(target)s; bids %(low)s to %(high)s.")
        % {"target": rules.target, "low": rules.min_bid, "high": rules.max_bid},
    ]
    if rules.bid_out_line is not None:
        lines.append(
            _("Bid-out at %(line)s: from there a team scores only when it bids.")
            % {"line": rules.bid_out_line}
        )
    if rules.raised_target:
        lines.append(
            _("A made no-trump bid raises the target to %(t)s.") % {"t": rules.raised_target}
        )
    if rules.no_trump == NoTrump.NONE:
        lines.append(_("No no-trump bids."))
    elif rules.no_trump == NoTrump.HIGH_AND_LOW:
        lines.append(_("No-trump bids, high and low; no-trump doubles the points."))
    else:
        lines.append(_("No-trump bids double the points."))
    lines.append(
        _("%(good)s: +%(bonus)s; %(bad)s: −%(penalty)s.")
        % {
            "good": rules.good_card,
            "bonus": rules.five_bonus,
            "bad": rules.bad_card,
            "penalty": rules.three_penalty,
        }
    )
    if rules.steal_the_five != StealTheFive.OFF:
        lines.append(_("Stealing the five is on."))
    if rules.kaiser_bid != KaiserBid.OFF:
        lines.append(_("The Kaiser bid is allowed."))
    if rules.minus_line_loses:
        lines.append(_("A team at −%(t)s loses.") % {"t": rules.target})
    if rules.time_limit_minutes:
        lines.append(
            _("Time limit: %(m)s minutes; the hand in play when time is called is finished.")
            % {"m": rules.time_limit_minutes}
        )
    return lines


def blank_sheets_data(
    *, event: Event, round_: Round | None = None, game_id: int | None = None
) -> dict[str, Any]:
    """One blank sheet per game: for one game (a tablet died), or every game of a round."""
    if game_id is not None:
        pairings = [_pairing_of_game(event, game_id)]
    elif round_ is not None:
        pairings = list(
            Pairing.objects.filter(round=round_, game__isnull=False)
            .select_related(*PAIRING_PEOPLE)
            .order_by("table__number", "match_number", "id")
        )
        if not pairings:
            raise InvalidInput(
                N_("%(round_)s has no games to print sheets for.", round_=round_.said)
            )
    else:
        raise InvalidInput(N_("Blank score sheets need a game or a round."))
    sheets = []
    for p in pairings:
        game = p.game
        assert game is not None
        sheets.append(
            {
                "round": round_name(p.round, p.event),
                "table": p.table.number if p.table else None,
                "home": side_name(p, SlotSide.HOME),
                "away": side_name(p, SlotSide.AWAY),
                "seats": _seats(game),
                "first_dealer": SEATS[game.first_dealer],
                "rules": rules_summary(game_rules(game)),
                "rows": range(1, BLANK_ROWS + 1),
            }
        )
    return {"sheets": sheets}


BLANK_ROWS = 22


# --- Table cards ----------------------------------------------------------------------------


def qr_data_uri(url: str) -> str:
    svg = qr_svg(url, scale=10)
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()


def table_cards_data(*, event: Event, table: Table | None, base_url: str) -> dict[str, Any]:
    tables: Sequence[Table]
    if table is not None:
        tables = [table]
    else:
        tables = list(Table.objects.filter(event=event).order_by("number"))
        if not tables:
            raise InvalidInput(N_("This event has no tables yet: generate a round first."))
    root = (base_url or "").rstrip("/")
    cards = []
    for t in tables:
        if t.code:
            url = root + table_path(t.code)
            cards.append(
                {
                    "number": t.number,
                    "code": display_code(t.code),
                    "url": url,
                    "qr": qr_data_uri(url),
                }
            )
        else:
            cards.append({"number": t.number, "code": "", "url": "", "qr": ""})
    return {"cards": cards, "open_url": root + "/t/"}
