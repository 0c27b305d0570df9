"""The property: whatever a club admin and an organiser do (add, remove, add again, import the
members CSV, type entries in, import an event, merge), once each person's records are merged
every game of theirs is under their one record, and every page (the club's ratings, the
player's page, the public season page) shows the totals the statistics selector gives.

Examples: 15 under CI (``CI=true``); ``PEOPLE_EXAMPLES=200`` for a longer run."""

from __future__ import annotations

import contextlib
import os
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kaiser_club.actors import Actor
from kaiser_club.errors import KaiserError
from kaiser_club.members import services as members
from kaiser_club.members.csv_io import members_csv_import
from kaiser_club.members.merge import player_merge
from kaiser_club.models import Club, FormerMembership, Membership, Player
from kaiser_club.people import NEW, ChooseRecord
from kaiser_club.roles import Role
from scoring.ratings import forget_ratings
from scoring.rules import Side
from scoring.stats import player_stats
from tests.factories import member
from tournaments import services
from tournaments.models import Event, Season
from tournaments.transfer import event_export, event_import

from .people_world import club_night, club_with_admin

pytestmark = [pytest.mark.django_db, pytest.mark.long]

EXAMPLES = int(os.environ.get("PEOPLE_EXAMPLES", "15"))
PEOPLE = ["Ann Amyot", "Bob Bear", "Cy Cote", "Dot Dion", "Ed Ens"]

person = st.sampled_from(PEOPLE)
steps = st.lists(
    st.one_of(
        st.tuples(st.just("add"), person, st.booleans()),
        st.tuples(st.just("remove"), person),
        st.tuples(st.just("again"), person),
        st.tuples(st.just("csv"), st.lists(person, min_size=1, max_size=3, unique=True)),
        st.tuples(
            st.just("entry"),
            st.permutations(PEOPLE),
            st.sampled_from(list(Side)),
            st.integers(0, 1),  # which record, when the page asks
        ),
        st.tuples(st.just("import"), st.integers(0, 1)),
        st.tuples(st.just("merge"), person),
    ),
    min_size=1,
    max_size=8,
)


class Done(Exception):
    """Rolls an example back: each starts from an empty club."""


@dataclass
class World:
    club: Club
    admin: Any
    organiser: Any
    season: Season
    games: Counter[str] = field(default_factory=Counter)  # each person's games, expected
    nights: list[tuple[Event, list[str]]] = field(default_factory=list)

    def records(self, name: str) -> list[Player]:
        return list(Player.objects.filter(name=name).order_by("id"))


def add(w: World, name: str, new: bool) -> None:
    actor = Actor.of(w.admin)
    try:
        members.member_add(club=w.club, name=name, actor=actor)
    except ChooseRecord as asked:
        free = [c.player.id for c in asked.ambiguities[0].candidates if not c.member_here]
        choice: Any = NEW if new or not free else free[0]
        members.member_add(club=w.club, name=name, actor=actor, choice=choice)


def remove(w: World, name: str) -> None:
    for membership in Membership.objects.filter(club=w.club, player__name=name):
        members.member_remove(membership=membership)


def again(w: World, name: str) -> None:
    past = FormerMembership.objects.filter(club=w.club, player__name=name).first()
    if past is not None:
        members.member_add_existing(club=w.club, player=past.player)


def csv(w: World, names: list[str]) -> None:
    text = "name\n" + "".join(f"{name}\n" for name in names)
    with contextlib.suppress(KaiserError):  # a name two records could be: refused, unwritten
        members_csv_import(club=w.club, text=text, actor=Actor.of(w.admin))


def entry(w: World, order: tuple[str, ...], winner: Side, pick: int) -> None:
    four = list(order[:4])
    night = club_night(
        w.club,
        w.season,
        [(four[0], four[1]), (four[2], four[3])],
        day=len(w.nights) + 1,
        winners=[winner],
        pick=pick,
    )
    w.nights.append((night, four))
    w.games.update(four)


def import_(w: World, pick: int) -> None:
    if not w.nights:
        return
    night, four = w.nights[-1]
    document = event_export(event=night)
    choices: dict[int, Any] = {}
    for _ in range(3):
        try:
            event_import(data=document, actor=w.organiser, choices=choices)
        except ChooseRecord as asked:
            for a in asked.ambiguities:
                chosen = a.candidates[pick % len(a.candidates)]
                choices[int(a.field.split()[-1])] = chosen.player.id
        else:
            w.games.update(four)
            return
    raise AssertionError("the import kept asking")


def merge(w: World, name: str) -> None:
    records = w.records(name)
    for duplicate in records[1:]:
        player_merge(actor=Actor.of(w.admin), keep_id=records[0].id, duplicate_id=duplicate.id)


def check_pages(w: World) -> None:
    client = Client()
    client.force_login(w.admin)
    forget_ratings()
    ratings = client.get(reverse("players:club-ratings", args=[w.club.slug])).context["rows"]
    by_rating = {row.player.id: (row.rated_games, row.wins) for row in ratings}
    season = {}
    if Event.objects.filter(season=w.season).exists():
        answer = client.get(reverse("public:season", args=[w.season.id]))
        season = {row.id: (row.games, row.wins) for row in answer.context["table"].data.data}
    for name in PEOPLE:
        for record in w.records(name):
            stats = player_stats(player=record).record
            page = client.get(reverse("players:detail", args=[record.id]))
            assert page.status_code == 200, (name, record.id)
            shown = page.context["record"]
            assert (shown.games, shown.wins) == (stats.games, stats.wins)
            if record.id in by_rating:  # a member: no forfeits here, so rated = played
                assert by_rating[record.id] == (stats.games, stats.wins)
            assert season.get(record.id, (0, 0)) == (stats.games, stats.wins), name


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(steps)
def test_every_sequence_keeps_each_persons_games_under_one_record(plan: list[Any]) -> None:
    cache.clear()
    forget_ratings()
    try:
        with transaction.atomic():
            club, admin = club_with_admin(name="Prop Club", slug="prop")
            w = World(
                club=club,
                admin=admin,
                organiser=member(club, Role.ORGANISER, username="prop-organiser"),
                season=services.season_create_unchecked(club=club, name="Season"),
            )
            act: dict[str, Callable[..., None]] = {
                "add": add,
                "remove": remove,
                "again": again,
                "csv": csv,
                "entry": entry,
                "import": import_,
                "merge": merge,
            }
            for step in plan:
                act[step[0]](w, *step[1:])
                check_pages(w)
            for name in PEOPLE:
                merge(w, name)
            forget_ratings()
            for name in PEOPLE:
                records = w.records(name)
                assert len(records) <= 1, (name, records)
                games = player_stats(player=records[0]).record.games if records else 0
                assert games == w.games[name], (name, plan)
            check_pages(w)
            raise Done
    except Done:
        pass
