"""Version stamps of an event (or a season), read in ONE query: what the standings cache and
the public pages' ETags are checked against.

A stamp is a fingerprint of the rows a page reads, made by the database: on PostgreSQL the
count and the sum of a hash of every row; elsewhere counts and sums of each row's id weighted
by what it holds (its result, its points, its teams…). Changing any one row changes the sum.
``results`` covers what standings read (pairings and their results, entries, the tie-break
order, and the people of the pairings' partnerships: which records they are, their names and
whether their pages are public, so that a merge of two records, a rename or a privacy change
shows at once); ``live`` adds what the live pages show (games' versions and last change, which move
with every confirmed hand, undo, correction and clock change; rounds). A hand waiting for
confirmation may touch its game's row, but changes no score shown anywhere.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import (
    Count,
    F,
    Func,
    IntegerField,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    TextField,
    Value,
)
from django.db.models.expressions import RawSQL
from django.db.models.functions import Cast, Coalesce, Length

from ..choices import EntryStatus, EventKind, ResultKind, RoundStatus
from ..models import Entry, Event, Pairing, Round, Season


class _Joined(Func):
    """``a || b || c`` as one flat expression. Django's Concat nests a pair per argument,
    which past a dozen arguments overflows SQLite's parser stack (the quick start's database)."""

    arg_joiner = " || "
    template = "(%(expressions)s)"
    output_field = TextField()


def _concat(*names: str) -> _Joined:
    parts: list[Any] = []
    for name in names:
        if parts:
            parts.append(Value(":", output_field=TextField()))
        parts.append(Coalesce(Cast(name, TextField()), Value(""), output_field=TextField()))
    return _Joined(*parts)


def _weighted(field: str) -> Sum:
    return Sum(F("id") * F(field))


def _fingerprint(qs: QuerySet[Any], group_by: str, aggregates: dict[str, Any]) -> Subquery:
    """A subquery giving one text column: the aggregates of ``qs``, joined."""
    return Subquery(
        qs.order_by()
        .values(group_by)
        .annotate(**aggregates)
        .annotate(fingerprint=_concat(*aggregates))
        .values("fingerprint")[:1],
        output_field=TextField(),
    )


def _result_aggregates() -> dict[str, Any]:
    aggregates: dict[str, Any] = {
        "r_n": Count("id"),
        "r_ids": Sum("id"),
        "r_home_won": Sum("id", filter=Q(winner_side="home")),
        "r_away_won": Sum("id", filter=Q(winner_side="away")),
        "r_home_points": _weighted("home_points"),
        "r_away_points": _weighted("away_points"),
        "r_home": _weighted("home_id"),
        "r_away": _weighted("away_id"),
        "r_pool": _weighted("pool"),
        "r_cancelled": Sum("id", filter=Q(cancelled=True)),
        "r_on_time": Sum("id", filter=Q(game__end_reason="time")),
    }
    for kind in ResultKind.values:
        aggregates[f"r_{kind}"] = Sum("id", filter=Q(result=kind))
    return aggregates


PEOPLE_SLOTS = (
    "home_team__player_one",
    "home_team__player_two",
    "away_team__player_one",
    "away_team__player_two",
)


class _NameHash(Func):
    """A number from a name that moves when the name changes: PostgreSQL's ``hashtext``;
    elsewhere the length (a rename to a name as long goes unseen there)."""

    function = "LENGTH"
    output_field = IntegerField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, function="hashtext", **extra)


def _people_aggregates() -> dict[str, Any]:
    """Who plays in the pairings' partnerships: each slot's record, name and privacy, weighted
    by the pairing's id (a merge re-points a partnership at the record kept)."""
    aggregates: dict[str, Any] = {}
    for n, slot in enumerate(PEOPLE_SLOTS):
        aggregates[f"p{n}_ids"] = Sum(F("id") * F(f"{slot}_id"))
        aggregates[f"p{n}_names"] = Sum(F("id") * _NameHash(f"{slot}__name"))
        aggregates[f"p{n}_public"] = Sum("id", filter=Q(**{f"{slot}__is_public": True}))
    return aggregates


def _live_aggregates() -> dict[str, Any]:
    return {
        "l_games": Sum("game_id"),
        "l_versions": Sum("game__version"),
        "l_updated": Max("game__updated_at"),
        "l_tables": _weighted("table_id"),
        "l_rounds": _weighted("round_id"),
        "l_late": Sum("id", filter=Q(played_late=True)),
    }


def _entry_aggregates() -> dict[str, Any]:
    return {
        "e_n": Count("id"),
        "e_ids": Sum("id"),
        "e_seeds": _weighted("seed"),
        "e_pools": _weighted("pool"),
        "e_withdrawn": Sum("id", filter=Q(status=EntryStatus.WITHDRAWN)),
        "e_names": Sum(F("id") * Length("name")),
        "e_teams": _weighted("team_id"),
        "e_players": _weighted("player_id"),
    }


def _round_aggregates() -> dict[str, Any]:
    return {
        "o_n": Count("id"),
        "o_ids": Sum("id"),
        "o_started": Sum("id", filter=Q(status=RoundStatus.STARTED)),
        "o_finished": Sum("id", filter=Q(status=RoundStatus.FINISHED)),
        "o_at": Max("started_at"),
        "o_labels": Sum(F("id") * Length("label")),
    }


# On PostgreSQL: one pass over the event's pairings and their games gives both the results
# fingerprint (the count, and the sum of a hash of every column a page shows of each pairing)
# and the live one (the games' count, versions and last change); entries and rounds are
# hashed whole. A change goes unseen only if two hashes collide (about 1 in 4 billion).
PAIRING_COLUMNS = (
    "result",
    "winner_side",
    "home_points",
    "away_points",
    "home_id",
    "away_id",
    "home_team_id",
    "away_team_id",
    "table_id",
    "round_id",
    "pool",
    "cancelled",
    "game_id",
    "played_late",
    "match_number",
    "code",
    "reason",
)
PG_PAIRINGS = (
    "SELECT count(p.id) || '/' || coalesce(sum(hashtext(concat_ws(','"
    + "".join(f", p.{column}" for column in PAIRING_COLUMNS)
    + "))::bigint), 0) || '|' || count(g.id) || '/' || coalesce(sum(g.version), 0) || '/' || "
    "coalesce(max(g.updated_at)::text, '') "
    'FROM "tournaments_pairing" p LEFT JOIN "scoring_game" g ON g.id = p.game_id '
    'WHERE p.event_id = "tournaments_event"."id"'
)
PG_ROWS = (
    "SELECT count(*) || '/' || coalesce(sum(hashtext(t::text)::bigint), 0) "
    'FROM "{table}" t WHERE t.event_id = "tournaments_event"."id"'
)


def _with_versions_postgresql(qs: QuerySet[Event]) -> QuerySet[Event]:
    return _with_people(qs).annotate(
        fp_pairings=RawSQL(PG_PAIRINGS, (), TextField()),
        fp_entries=RawSQL(PG_ROWS.format(table=Entry._meta.db_table), (), TextField()),
        fp_rounds=RawSQL(PG_ROWS.format(table=Round._meta.db_table), (), TextField()),
    )


def with_versions(qs: QuerySet[Event]) -> QuerySet[Event]:
    """Events annotated with the fingerprints their versions are made from."""
    if connection.vendor == "postgresql":
        return _with_versions_postgresql(qs)
    return with_portable_versions(qs)


def with_portable_versions(qs: QuerySet[Event]) -> QuerySet[Event]:
    """The same fingerprints with aggregates any database runs (SQLite for the quick start):
    counts, and sums of each row's id weighted by what it holds."""
    pairings = Pairing.objects.filter(event=OuterRef("pk"))
    return _with_people(qs).annotate(
        fp_results=_fingerprint(pairings, "event", _result_aggregates()),
        fp_live=_fingerprint(pairings, "event", _live_aggregates()),
        fp_entries=_fingerprint(
            Entry.objects.filter(event=OuterRef("pk")), "event", _entry_aggregates()
        ),
        fp_rounds=_fingerprint(
            Round.objects.filter(event=OuterRef("pk")), "event", _round_aggregates()
        ),
    )


def _with_people(qs: QuerySet[Event]) -> QuerySet[Event]:
    pairings = Pairing.objects.filter(event=OuterRef("pk"))
    return qs.annotate(fp_people=_fingerprint(pairings, "event", _people_aggregates()))


def _digest(*parts: object) -> str:
    return hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()


@dataclass(frozen=True)
class Versions:
    results: str  # what standings read changed
    live: str  # what any public page shows changed


def event_versions(event: Event) -> Versions:
    """The versions of an event read through ``with_versions`` (no query), or with one
    query when the event was read without them."""
    if not hasattr(event, "fp_entries"):
        event = with_versions(Event.objects.filter(pk=event.pk)).get()
    found: Any = event
    if hasattr(found, "fp_pairings"):
        pairings, _, games = (found.fp_pairings or "").partition("|")
    else:
        pairings, games = found.fp_results, found.fp_live
    settings = (event.tiebreaks, event.format, event.kind, event.status)
    results = _digest(pairings, found.fp_entries, found.fp_people, settings)
    live = _digest(
        results,
        games,
        found.fp_rounds,
        event.name,
        event.venue,
        str(event.date),
        event.public_pages,
        event.minutes_per_game,
    )
    return Versions(results=results, live=live)


def season_version(season: Season) -> str:
    """The version of a season's leaderboard (one query): the results of its club nights and
    the people of their partnerships (a merge of two records shows at once)."""
    pairings = Pairing.objects.filter(
        event__season=OuterRef("pk"), event__kind=EventKind.CLUB_NIGHT
    )
    found = (
        Season.objects.filter(pk=season.pk)
        .annotate(
            fp=_fingerprint(pairings, "event__season", _result_aggregates()),
            people=_fingerprint(pairings, "event__season", _people_aggregates()),
        )
        .values_list("fp", "people")
        .first()
    )
    return _digest(found, season.tiebreaks)
