"""Sign-ups through the registrations service: places, the waiting list and its promotions,
the organiser's decisions, refusals in words, and the messages each change writes."""

from __future__ import annotations

import datetime as dt
from typing import Any, cast

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from kaiser_club.actors import Actor
from kaiser_club.errors import InvalidInput, NotAllowed, NotFound
from kaiser_club.models import Club, Player
from kaiser_club.roles import Role
from tests.factories import ClubFactory, PlayerFactory, member
from tournaments import services
from tournaments.choices import EntryStatus
from tournaments.models import Entry, OutboxMessage, Registration, RegistrationStatus, Round
from tournaments.registration_selectors import (
    own_page,
    registrants_in_round,
    seats_in_round,
    sign_up_state,
)
from tournaments.services import registrations as reg

from ..helpers import generate
from .world import ANYONE, entry_of, open_event, pair, sign_up

pytestmark = pytest.mark.django_db


def player(name: str, **fields: Any) -> Player:
    return cast(Player, PlayerFactory(name=name, **fields))


def test_a_sign_up_with_a_place_left_is_an_entry_with_its_players_found_or_made() -> None:
    event = open_event(capacity=2)
    known = player("Anne Known", email="anne@example.org", host_club=event.club)
    registration = sign_up(event, pair("Anne", "anne@example.org", "Bob", "bob@example.org"))
    assert registration.status == RegistrationStatus.REGISTERED
    entry = entry_of(registration)
    assert entry.team is not None
    assert entry.team.player_one_id == known.id  # found by e-mail, not by name
    assert entry.team.player_two.email == "bob@example.org"
    assert entry.team.player_two.host_club_id == event.club_id


def test_past_the_capacity_a_sign_up_waits_in_order() -> None:
    event = open_event(capacity=1)
    sign_up(event, pair("A", "a@x.org", "B", "b@x.org"))
    second = sign_up(event, pair("C", "c@x.org", "D", "d@x.org"))
    third = sign_up(event, pair("E", "e@x.org", "F", "f@x.org"))
    assert [sign_up_state(r).place for r in (second, third)] == [1, 2]
    assert second.status == third.status == RegistrationStatus.WAITING
    assert Entry.objects.filter(event=event).count() == 1


def test_a_withdrawal_promotes_the_head_of_the_waiting_list(
    django_capture_on_commit_callbacks,
) -> None:
    event = open_event(capacity=1)
    first = sign_up(event, pair("A", "a@x.org", "B", "b@x.org"))
    second = sign_up(event, pair("C", "c@x.org", "D", "d@x.org"))
    with django_capture_on_commit_callbacks(execute=True):
        reg.registration_withdraw(registrant=first.registrants.get(position=1))
    second.refresh_from_db()
    assert second.status == RegistrationStatus.REGISTERED
    assert entry_of(first).status == EntryStatus.WITHDRAWN
    assert (
        OutboxMessage.objects.filter(registrant__registration=second, key="promoted").count() == 2
    )


def test_the_organiser_withdrawing_an_entry_frees_its_place(
    django_capture_on_commit_callbacks,
) -> None:
    event = open_event(capacity=1)
    first = sign_up(event, pair("A", "a@x.org", "B", "b@x.org"))
    waiting = sign_up(event, pair("C", "c@x.org", "D", "d@x.org"))
    with django_capture_on_commit_callbacks(execute=True):
        services.entry_withdraw_unchecked(entry=entry_of(first))
    waiting.refresh_from_db()
    assert waiting.status == RegistrationStatus.REGISTERED


def test_refusing_a_registered_entry_promotes_the_next(django_capture_on_commit_callbacks) -> None:
    event = open_event(capacity=1)
    organiser = Actor.of(member(event.club, Role.ORGANISER))
    first = sign_up(event, pair("A", "a@x.org", "B", "b@x.org"))
    waiting = sign_up(event, pair("C", "c@x.org", "D", "d@x.org"))
    with django_capture_on_commit_callbacks(execute=True):
        reg.registration_refuse_by(actor=organiser, registration=first, reason="Not a member")
    first.refresh_from_db()
    waiting.refresh_from_db()
    assert first.status == RegistrationStatus.REFUSED
    assert first.refusal == "Not a member"
    assert waiting.status == RegistrationStatus.REGISTERED


def test_approval_events_wait_for_the_organiser_and_only_the_organiser_decides() -> None:
    event = open_event(capacity=1, registration="approval")
    registration = sign_up(event, pair("A", "a@x.org", "B", "b@x.org"))
    assert registration.status == RegistrationStatus.PENDING
    assert not Entry.objects.filter(event=event).exists()
    player = Actor.of(member(event.club, Role.PLAYER))
    with pytest.raises(NotAllowed):
        reg.registration_approve_by(actor=player, registration=registration)
    organiser = Actor.of(member(event.club, Role.ORGANISER))
    approved = reg.registration_approve_by(actor=organiser, registration=registration)
    assert approved.status == RegistrationStatus.REGISTERED
    later = sign_up(event, pair("C", "c@x.org", "D", "d@x.org"))
    assert reg.registration_approve_by(actor=organiser, registration=later).status == "waiting"


def test_the_organiser_reorders_and_promotes_by_hand() -> None:
    event = open_event(capacity=1)
    organiser = Actor.of(member(event.club, Role.ORGANISER))
    sign_up(event, pair("A", "a@x.org", "B", "b@x.org"))
    second = sign_up(event, pair("C", "c@x.org", "D", "d@x.org"))
    third = sign_up(event, pair("E", "e@x.org", "F", "f@x.org"))
    reg.registration_move_by(actor=organiser, registration=third, place=1)
    assert [r.id for r in reg.waiting_list(event)] == [third.id, second.id]
    with pytest.raises(InvalidInput, match="from 1 to 2"):
        reg.registration_move_by(actor=organiser, registration=third, place=3)
    promoted = reg.registration_promote_by(actor=organiser, registration=second)
    assert promoted.status == RegistrationStatus.REGISTERED
    assert Entry.objects.filter(event=event).count() == 2  # by hand, past the capacity


@pytest.mark.parametrize(
    ("people", "said"),
    [
        (pair("A", "a@x.org", "B", "a@x.org"), "own e-mail address"),
        (pair("A", "not-an-address", "B", "b@x.org"), "is not an e-mail address"),
        (pair("A" * 121, "a@x.org", "B", "b@x.org"), "at most 120 characters"),
        (pair("A", "a@x.org", "B", ("b" * 250) + "@x.org"), "is not an e-mail address"),
        (pair("A", "a@x.org", "B", "b@x.org")[:1], "two players"),
    ],
)
def test_bad_sign_ups_are_refused_with_a_sentence(people: list[reg.Person], said: str) -> None:
    event = open_event(capacity=4)
    with pytest.raises(InvalidInput, match=said):
        sign_up(event, people)
    assert not Registration.objects.filter(event=event).exists()


def test_the_same_e_mail_signs_up_once() -> None:
    event = open_event(capacity=4)
    sign_up(event, pair("A", "a@x.org", "B", "b@x.org"))
    with pytest.raises(InvalidInput, match="has already signed up") as refused:
        sign_up(event, pair("C", "c@x.org", "B again", "B@X.org"))
    assert refused.value.code == "already_signed_up"


def test_closed_finished_or_past_closing_events_take_no_sign_up() -> None:
    closed = open_event(capacity=4, registration="closed")
    with pytest.raises(NotFound):
        sign_up(closed, pair("A", "a@x.org", "B", "b@x.org"))
    late = open_event(capacity=4, registration_closes_at=timezone.now() - dt.timedelta(minutes=1))
    with pytest.raises(InvalidInput, match="closed at"):
        sign_up(late, pair("A", "a@x.org", "B", "b@x.org"))


def test_a_player_already_entered_by_the_organiser_is_refused_without_a_trace() -> None:
    event = open_event(capacity=4)
    anne = player("Anne", email="anne@x.org", host_club=event.club)
    services.entry_register_team_unchecked(event=event, player_one=anne, player_two=player("Zed"))
    with pytest.raises(InvalidInput, match="already plays in"):
        sign_up(event, pair("Anne", "anne@x.org", "Bob", "bob@x.org"))
    assert not Registration.objects.filter(event=event).exists()


def test_a_progressive_event_takes_one_player() -> None:
    event = open_event(capacity=4, format="progressive")
    registration = sign_up(event, [reg.Person("Solo", "solo@x.org")])
    assert entry_of(registration).player == Player.objects.get(email="solo@x.org")


def test_each_change_writes_one_message_per_player_in_their_language() -> None:
    event = open_event(capacity=1)
    sign_up(event, pair("A", "a@x.org", "B", "b@x.org"))
    french = reg.registration_submit(
        actor=ANYONE,
        event_id=event.id,
        people=pair("Céline", "c@x.org", "Denis", "d@x.org"),
        language="fr",
        base_url="http://testserver",
    )
    messages = OutboxMessage.objects.filter(registrant__registration=french)
    assert messages.count() == 2
    body = messages.earliest("id").body
    assert "liste d'attente" in body
    assert f"http://testserver/e/{event.id}/me/" in body


def test_renewing_a_link_ends_the_old_one() -> None:
    event = open_event(capacity=1)
    registrant = sign_up(event, pair("A", "a@x.org", "B", "b@x.org")).registrants.get(position=1)
    old = registrant.secret
    organiser = Actor.of(member(event.club, Role.ORGANISER))
    reg.registrant_link_renew_by(actor=organiser, registrant=registrant)
    assert registrant.secret != old
    with pytest.raises(NotAllowed):
        reg.registrant_link_renew_by(actor=ANYONE, registrant=registrant)


def test_a_club_member_signed_in_is_found_by_their_own_record() -> None:
    club = cast(Club, ClubFactory())
    event = open_event(capacity=2, club=club)
    user = member(club, Role.PLAYER)
    registration = reg.registration_submit(
        actor=Actor.of(user),
        event_id=event.id,
        people=pair("Me", "me@x.org", "Partner", "p@x.org"),
    )
    team = entry_of(registration).team
    assert team is not None
    assert team.player_one.user_id == user.id


def test_a_place_freed_is_the_waiting_lists_not_a_newcomers() -> None:
    event = open_event(capacity=1)
    registered = sign_up(event, pair("A", "a@x.org", "B", "b@x.org"))
    waiting = sign_up(event, pair("C", "c@x.org", "D", "d@x.org"))
    services.entry_withdraw_unchecked(entry=entry_of(registered))  # its promotion has not run yet
    newcomer = sign_up(event, pair("E", "e@x.org", "F", "f@x.org"))
    assert newcomer.status == RegistrationStatus.WAITING
    assert [r.id for r in reg.promote_waiting(event_id=event.id)] == [waiting.id]


def test_a_bracket_match_made_when_its_winner_carries_on_tells_its_players_their_table(
    django_capture_on_commit_callbacks,
) -> None:
    """A knockout's later match gets its teams when the matches before it end, long after its
    round was drawn: its players are told their table then, once each."""
    from tests.tournaments.helpers import generate, win_for
    from tournaments.models import Pairing

    event = open_event(capacity=4, format="single_elimination")
    signed = [
        sign_up(event, pair(f"A{n}", f"a{n}@x.org", f"B{n}", f"b{n}@x.org")) for n in range(4)
    ]
    with django_capture_on_commit_callbacks(execute=True):
        generate(event)
    final = Pairing.objects.get(event=event, round__number=2)
    told = OutboxMessage.objects.filter(key=f"round-{final.round_id}")
    assert final.game_id is None and not told.exists()
    with django_capture_on_commit_callbacks(execute=True):
        for semi in Pairing.objects.filter(event=event, round__number=1).order_by("id"):
            win_for(semi, semi.home)
    final.refresh_from_db()
    assert final.game_id is not None and final.table is not None
    finalists = {final.home_id, final.away_id}
    players = [r for r in signed if entry_of(r).id in finalists]
    assert {m.registrant.registration_id for m in told} == {r.id for r in players}
    assert told.count() == 4  # each finalist once
    assert f"{final.table.number}" in told.earliest("id").body


@pytest.mark.parametrize("format", ["swiss", "progressive"])
def test_a_round_drawn_seats_each_registrant_where_their_own_page_does(format: str) -> None:
    """The round's message reads the round's pairings once for everyone (not each player's
    whole own page), and finds each seat where the own page finds it."""
    event = open_event(capacity=8, format=format)
    names = "ABCDEFGH"
    if format == "progressive":
        for n in names:
            sign_up(event, [reg.Person(f"Solo {n}", f"{n.lower()}@x.org")])
    else:
        for n in names[:4]:
            sign_up(event, pair(f"{n}1", f"{n}1@x.org", f"{n}2", f"{n}2@x.org"))
    generate(event)
    round_ = Round.objects.get(event=event, number=1)
    registrants = registrants_in_round(round_)
    assert len(registrants) == 8
    with CaptureQueriesContext(connection) as read:
        seats = seats_in_round(round_, registrants)
    assert len(read) == 1
    assert {r.id: seat for r, seat in seats} == {r.id: own_page(r).seat for r in registrants}
