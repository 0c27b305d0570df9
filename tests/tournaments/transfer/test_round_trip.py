"""Export an event, import it back as a copy, export again: the same document, the same
standings, the same scores (recomputed from the hands, not read from the file)."""

from __future__ import annotations

import copy
import json
import uuid
from typing import Any

import pytest

from kaiser_club.models import Player
from scoring import services as scoring
from scoring.models import Game, Hand, Team
from scoring.rules import Contract, HandEntry, HandKind, Seat, Side, Suit
from scoring.services.hands import hand_record
from tests.tournaments.helpers import game_of, generate, gid, make_event, player, win_for, win_game
from tournaments import services
from tournaments.models import Event, Pairing, Table
from tournaments.standings.queries import event_standings
from tournaments.transfer import ImportRefused, event_export, event_import

pytestmark = pytest.mark.django_db


def small_hand(side: Side, bid: int = 7) -> HandEntry:
    return HandEntry(
        kind=HandKind.PLAYED,
        bidder=Seat.NORTH if side is Side.NS else Seat.EAST,
        bid=bid,
        contract=Contract.TRUMP,
        trump=Suit.HEARTS,
        bidding_team_tricks=7,
        five_hearts=side,
        three_spades=side.other,
    )


def swiss_event() -> Event:
    """Six teams of Swiss, round 1 played out (two wins, a forfeit), round 2 under way: one
    game won, one with hands in progress and one hand waiting for confirmation."""
    event = make_event(teams=6, format="swiss", verification=True)
    for n, entry in enumerate(event.entries.order_by("id"), start=1):
        if n <= 4:
            assert entry.team is not None
            entry.team.player_one.email = f"p{n}@example.org"
            entry.team.player_one.save()
    generate(event)
    services.round_start_unchecked(round_=event.round_set.get(number=1))
    first = list(Pairing.objects.filter(event=event, round__number=1).order_by("id"))
    win_for(first[0], first[0].home)
    win_game(first[1].game_id, Side.EW)
    services.pairing_forfeit_unchecked(pairing=first[2], forfeiting="home", reason="No show")
    job = generate(event)
    assert job.status == "done", job.error
    services.round_start_unchecked(round_=event.round_set.get(number=2))
    second = list(Pairing.objects.filter(event=event, round__number=2).order_by("id"))
    win_game(second[0].game_id, Side.NS)
    services.pairing_substitute_unchecked(
        pairing=second[1],
        replaced_id=game_of(second[1]).north_id,
        substitute_id=player("Sub Stitute").id,
    )
    scoring.hand_record(game_id=gid(second[1]), entry=small_hand(Side.NS), client_id=uuid.uuid4())
    scoring.hand_record(game_id=gid(second[1]), entry=small_hand(Side.EW), client_id=uuid.uuid4())
    hand_record(
        game_id=gid(second[2]),
        entry=small_hand(Side.EW, bid=8),
        client_id=uuid.uuid4(),
        entered_by_seat=Seat.EAST,
        pending=True,
    )
    return event


def without_moment(document: dict[str, Any]) -> dict[str, Any]:
    document = copy.deepcopy(document)
    document.pop("exported_at")
    return document


def standings(event: Event) -> list[tuple[Any, ...]]:
    return [
        (r.place, r.name, r.wins, r.points_for, r.points_against)
        for r in event_standings(event=event)
    ]


def test_export_import_export_gives_the_same_document_and_standings():
    event = swiss_event()
    first = event_export(event=event)
    text = json.dumps(first)  # it is plain JSON
    copy_ = event_import(data=json.loads(text), actor=None).event
    assert copy_.id != event.id
    second = event_export(event=copy_)
    assert without_moment(second) == without_moment(first)
    assert standings(copy_) == standings(event)
    assert len(first["substitutions"]) == 1
    assert len(first["games"]) == 6 and any(
        h["status"] == "pending" for g in first["games"] for h in g["hands"]
    )
    # Every game's scores and hands' derived columns equal the original's.
    for old, new in zip(
        Game.objects.filter(pairing__event=event).order_by("id"),
        Game.objects.filter(pairing__event=copy_).order_by("id"),
        strict=True,
    ):
        fields = ["status", "ns_score", "ew_score", "winner", "end_reason", "hand_count", "dealer"]
        assert [getattr(new, f) for f in fields] == [getattr(old, f) for f in fields]
        old_hands = Hand.with_pending.filter(game=old).order_by("number")
        new_hands = Hand.with_pending.filter(game=new).order_by("number")
        columns = ["number", "status", "ns_score", "ew_score", "made", "dealer", "client_id"]
        assert list(new_hands.values_list(*columns)) == list(old_hands.values_list(*columns))
    # Players with an email were matched, not duplicated; fresh table codes.
    assert {p["email"] for p in first["players"] if p["email"]} == {
        f"p{n}@example.org" for n in range(1, 5)
    }
    old_codes = set(Table.objects.filter(event=event).values_list("code", flat=True))
    new_codes = set(Table.objects.filter(event=copy_).values_list("code", flat=True))
    assert new_codes and not old_codes & new_codes


def test_scores_in_the_file_are_ignored_and_recomputed():
    event = swiss_event()
    document = event_export(event=event)
    assert "ns_score" not in document["games"][0]
    played = next(p for p in document["pairings"] if p["result"] == "played")
    played["home_points"], played["away_points"] = 999, -5
    copy_ = event_import(data=document, actor=None).event
    assert standings(copy_) == standings(event)


def test_a_double_elimination_bracket_round_trips():
    event = make_event(teams=6, format="double_elimination")
    generate(event)
    ready = [p for p in Pairing.objects.filter(event=event).order_by("id") if p.game_id]
    win_for(ready[0], ready[0].home)
    win_for(ready[1], ready[1].away)
    first = event_export(event=event)
    assert any(p["winner_to"] for p in first["pairings"])
    copy_ = event_import(data=first, actor=None).event
    assert without_moment(event_export(event=copy_)) == without_moment(first)
    links = Pairing.objects.filter(event=copy_, winner_to__isnull=False)
    assert links.exists() and all(
        p.winner_to is not None and p.winner_to.event_id == copy_.id for p in links
    )


def test_a_missing_club_is_created_from_the_file():
    event = swiss_event()
    old = event_export(event=event)
    document = json.loads(json.dumps(old).replace(f'"{old["event"]["club"]}"', '"moved-club"'))
    for club in document["clubs"]:
        if club["slug"] == "moved-club":
            club["name"] = "Moved Club"
    copy_ = event_import(data=document, actor=None).event
    assert copy_.club.slug == "moved-club" and copy_.club.name == "Moved Club"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(version=99), "export format version 99"),
        (lambda d: d.update(format="other"), "not a Kaiser Club event export"),
        (lambda d: d["event"].update(preset="nonsense"), "nonsense"),
        (lambda d: d.pop("games"), "has no 'games'"),
        (lambda d: d["pairings"][0].update(round=42), "round 42"),
    ],
)
def test_a_bad_file_is_refused_and_writes_nothing(change, message):
    event = swiss_event()
    document = event_export(event=event)
    change(document)
    before = (Event.objects.count(), Game.objects.count(), Hand.with_pending.count())
    with pytest.raises(ImportRefused, match=message):
        event_import(data=document, actor=None)
    assert (Event.objects.count(), Game.objects.count(), Hand.with_pending.count()) == before


def test_a_hand_the_rules_refuse_names_game_and_hand():
    event = swiss_event()
    document = event_export(event=event)
    game = document["games"][0]
    assert game["rules"]["min_bid"] == 7
    game["hands"][1]["bid"] = 4
    before = Event.objects.count()
    with pytest.raises(ImportRefused) as refused:
        event_import(data=document, actor=None)
    assert str(refused.value) == "Game 1, hand 2: Bid 4 is below this game's minimum of 7."
    assert Event.objects.count() == before


def test_game_of_imported_pairing_is_in_progress_where_it_was():
    event = swiss_event()
    copy_ = event_import(data=event_export(event=event), actor=None).event
    rows = list(Pairing.objects.filter(event=copy_, round__number=2).order_by("id"))
    assert game_of(rows[1]).status == "in_progress" and game_of(rows[1]).hand_count == 2
    assert Hand.with_pending.filter(game_id=gid(rows[2]), status="pending").count() == 1


@pytest.mark.parametrize(
    ("format", "teams", "extra"),
    [
        ("round_robin", 5, {}),
        ("single_elimination", 6, {"third_place": True}),
        ("pools", 8, {"pool_count": 2, "pool_advance": 2}),
        ("progressive", 8, {}),
    ],
)
def test_every_format_round_trips(format: str, teams: int, extra: dict[str, Any]) -> None:
    event = make_event(teams=teams, format=format, **extra)
    job = generate(event)
    assert job.status == "done", job.error
    playable = [p for p in Pairing.objects.filter(event=event).order_by("id") if p.game_id]
    for row in playable[:2]:
        win_game(row.game_id, Side.NS)
    first = event_export(event=event)
    copy_ = event_import(data=first, actor=None).event
    assert without_moment(event_export(event=copy_)) == without_moment(first)
    if not event.individual:
        assert standings(copy_) == standings(event)


def test_the_export_reads_in_constant_queries() -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for teams in (4, 12):
        event = make_event(teams=teams)
        generate(event)
        for row in Pairing.objects.filter(event=event, game__isnull=False):
            win_game(row.game_id, Side.EW)
        event = Event.objects.get(id=event.id)
        with CaptureQueriesContext(connection) as queries:
            event_export(event=event)
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 12, counts


def test_an_import_on_the_same_server_reuses_the_clubs_partnerships():
    """Every player found here (by email, or without one by name among the club's records) and
    the club on this server: each of the file's teams is the club's existing partnership, so
    its statistics do not split across a copy."""
    event = make_event(teams=4, format="round_robin")
    for entry in event.entries.select_related("team__player_one", "team__player_two"):
        assert entry.team is not None
        for member in (entry.team.player_one, entry.team.player_two):
            member.email = f"{member.name.lower()}@example.org"
            member.save()
    # One team has a player without an email: found by name, as the club's visitor.
    lone = event.entries.order_by("id").last()
    assert lone is not None and lone.team is not None
    lone.team.player_two.email = ""
    lone.team.player_two.save()
    teams_before = set(Team.objects.values_list("id", flat=True))
    players_before = Player.objects.count()

    copy_ = event_import(data=event_export(event=event), actor=None).event

    old_teams = list(event.entries.order_by("id").values_list("team_id", flat=True))
    new_teams = list(copy_.entries.order_by("id").values_list("team_id", flat=True))
    assert new_teams == old_teams
    assert set(Team.objects.values_list("id", flat=True)) == teams_before
    assert Player.objects.count() == players_before
