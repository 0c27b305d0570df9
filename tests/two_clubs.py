"""Two clubs side by side, each with the same things: members, teams, a club game with a hand,
a season, a Swiss event with entries, round 1 drawn (tables with codes, a hand in its first
game), a generation job, a failed report and a pending sign-up. The acting users hold their
roles in club A only; club B's things are what their writes must not reach
(tests/test_cross_club.py).
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from kaiser_club.actors import Actor
from kaiser_club.models import Club, Membership, Player
from kaiser_club.roles import Role
from scoring import services as scoring
from scoring.models import Game, Hand, Team
from scoring.rules import Seat
from tests.factories import member
from tests.scoring.hands import EW, NS, N, make_club, played
from tournaments import services
from tournaments.choices import JobStatus, RegistrationMode
from tournaments.models import (
    Entry,
    Event,
    GenerationJob,
    OutboxMessage,
    Pairing,
    PushSubscription,
    Registrant,
    Registration,
    ReportJob,
    Round,
    Season,
    Table,
)
from tournaments.services import registrations


@dataclass
class Side:
    """One club's things."""

    club: Club
    players: list[Player]  # members of the club (role player), with emails; [14:] play nowhere
    admin: User  # the club's club admin
    membership: Membership  # players[0]'s membership
    team: Team  # players[0] & players[1]
    other_team: Team  # players[2] & players[3]
    game: Game  # team v other_team, a club game with one hand
    season: Season
    event: Event  # Swiss, six entries of the club's members (players[2:14]), round 1 drawn
    round: Round
    pairings: list[Pairing]  # by table: [0] at table 1 has a hand, the others none
    table: Table  # table 1
    job: GenerationJob
    report: ReportJob  # failed: a rerun would queue it again
    # A pair's sign-up for the event, pending the organiser's word (``sign_up``); its first
    # player's private link is ``registrant.secret``.
    registration: Registration | None = None
    registrant: Registrant | None = None

    def ids(self, prefix: str) -> dict[str, Any]:
        return {
            f"{prefix}_club": self.club.id,
            f"{prefix}_club_name": self.club.name,
            f"{prefix}_slug": self.club.slug,
            f"{prefix}_player": self.players[0].id,
            f"{prefix}_player_name": self.players[0].name,
            f"{prefix}_email": self.players[0].email,
            f"{prefix}_player2": self.players[1].id,
            f"{prefix}_player3": self.players[2].id,
            f"{prefix}_player4": self.players[3].id,
            f"{prefix}_spare": self.players[14].id,
            f"{prefix}_member": self.membership.id,
            f"{prefix}_team": self.team.id,
            f"{prefix}_team2": self.other_team.id,
            f"{prefix}_game": self.game.id,
            f"{prefix}_season": self.season.id,
            f"{prefix}_event": self.event.id,
            f"{prefix}_event_name": self.event.name,
            # two entries whose games have not begun (of the second and third pairings)
            f"{prefix}_entry": self.pairings[1].home_id,
            f"{prefix}_entry2": self.pairings[2].home_id,
            f"{prefix}_round": self.round.id,
            f"{prefix}_pairing": self.pairings[0].id,
            f"{prefix}_pairing2": self.pairings[1].id,
            f"{prefix}_pairing_game": self.pairings[0].game_id,
            f"{prefix}_pairing_north": Game.objects.get(pairing=self.pairings[0]).north_id,
            f"{prefix}_table": self.table.id,
            f"{prefix}_job": self.job.id,
            f"{prefix}_report": self.report.id,
            **self.sign_up_ids(prefix),
        }

    def sign_up_ids(self, prefix: str) -> dict[str, Any]:
        if self.registration is None or self.registrant is None:
            return {}
        return {
            f"{prefix}_registration": self.registration.id,
            f"{prefix}_registrant": self.registrant.id,
            f"{prefix}_secret": self.registrant.secret,
        }


def sign_up(side: Side, tag: str, *, by: User | None = None, closed_after: bool = False) -> None:
    """A pair signs up for the side's event, opened for sign-ups on the organiser's approval
    (``by``: the signed-in user whose own record the first player is); ``closed_after``: the
    organiser then closes the sign-ups, the pair still pending."""
    event = side.event
    Event.objects.filter(id=event.id).update(registration=RegistrationMode.APPROVAL)
    side.registration = registrations.registration_submit(
        actor=Actor.of(by),
        event_id=event.id,
        people=[
            registrations.Person(f"{tag} Signer 1", f"{tag.lower()}.signer1@example.org"),
            registrations.Person(f"{tag} Signer 2", f"{tag.lower()}.signer2@example.org"),
        ],
        base_url="http://testserver",
    )
    side.registrant = side.registration.registrants.get(position=1)
    if closed_after:
        Event.objects.filter(id=event.id).update(registration=RegistrationMode.CLOSED)
    event.refresh_from_db()


def member_player(club: Club, name: str, email: str, role: Role = Role.PLAYER) -> Player:
    player = Player.objects.create(name=name, email=email)
    Membership.objects.create(club=club, player=player, role=role)
    return player


def build_side(club: Club, tag: str, *, started: bool) -> Side:
    players = [
        member_player(club, f"{tag} Player {n}", f"{tag.lower()}{n}@example.org")
        for n in range(1, 17)
    ]
    admin = member(club, Role.CLUB_ADMIN)
    team = Team.objects.create(
        club=club, player_one=players[0], player_two=players[1], name=f"{tag} Aces"
    )
    other = Team.objects.create(
        club=club, player_one=players[2], player_two=players[3], name=f"{tag} Kings"
    )
    game = scoring.game_start(
        club=club,
        ns_team=team,
        ew_team=other,
        first_dealer=Seat.NORTH,
        rules=scoring.rules_from(preset_name="club"),
        preset_name="club",
    )
    scoring.hand_record(game_id=game.id, entry=played(N, 7, 6, NS, EW), client_id=uuid.uuid4())
    season = services.season_create_unchecked(club=club, name="2026–27")
    event = services.event_create(
        club=club,
        name=f"{tag} Fall Swiss",
        date=dt.date(2026, 10, 3),
        rounds=3,
        check_in_required=False,
        season=season,
    )
    for n in range(6):
        services.entry_register_team_unchecked(
            event=event, player_one=players[2 + 2 * n], player_two=players[3 + 2 * n], seed=n + 1
        )
    job = services.generation_request(event=event)  # its task waits for a commit that never is
    job = services.generation_run(job_id=job.id)
    round_ = Round.objects.get(event=event, number=1)
    if started:
        services.round_start_unchecked(round_=round_)
    pairings = list(Pairing.objects.filter(round=round_).order_by("table__number"))
    assert len(pairings) == 3 and all(p.game_id for p in pairings)
    first = Game.objects.get(pairing=pairings[0])
    scoring.hand_record(game_id=first.id, entry=played(N, 7, 6, NS, EW), client_id=uuid.uuid4())
    report = ReportJob.objects.create(
        event=event,
        kind="standings",
        status=JobStatus.FAILED,
        error="The worker stopped.",
        attempts=1,
        finished_at=timezone.now(),
    )
    return Side(
        club=club,
        players=players,
        admin=admin,
        membership=Membership.objects.get(club=club, player=players[0]),
        team=team,
        other_team=other,
        game=game,
        season=season,
        event=event,
        round=round_,
        pairings=pairings,
        table=Table.objects.get(event=event, number=1),
        job=job,
        report=report,
    )


@dataclass
class TwoClubs:
    a: Side
    b: Side
    users: dict[str, User]  # "organiser", "club_admin": their roles are in club A only
    c_player: Player  # a member of a third club whose club admin is A's too

    def ids(self) -> dict[str, Any]:
        return {**self.a.ids("a"), **self.b.ids("b"), "c_player": self.c_player.id}


def two_clubs() -> TwoClubs:
    # A's round 1 waits for its start (so that swaps and the start itself can go through);
    # B's is under way. A's event takes sign-ups on approval, its pair's first player being
    # A's organiser; B's took a pair's sign-up, then closed its sign-ups.
    a = build_side(make_club(name="Regina Kaiser Club", slug="regina"), "A", started=False)
    b = build_side(make_club(name="Brandon Kaiser Club", slug="brandon"), "B", started=True)
    users = {
        "organiser": member(a.club, Role.ORGANISER),
        "club_admin": a.admin,
    }
    sign_up(a, "A", by=users["organiser"])
    sign_up(b, "B", closed_after=True)
    # A's club admin runs a third club too: its members are theirs to add to A (the pages
    # offer them); B's are not.
    c = make_club(name="Moose Jaw Kaiser Club", slug="moose-jaw")
    admin = Player.objects.get(user=users["club_admin"])
    Membership.objects.create(club=c, player=admin, role=Role.CLUB_ADMIN)
    c_player = member_player(c, "C Player 1", "c1@example.org")
    return TwoClubs(a=a, b=b, users=users, c_player=c_player)


def owned_by(side: Side) -> dict[type[Any], set[int]]:
    """The ids of one club's rows, model by model: what no write of another club may change
    or name."""
    club, event = side.club, side.event

    def ids(qs: Any) -> set[int]:
        return set(qs.values_list("id", flat=True))

    return {
        Club: {club.id},
        Player: ids(Player.objects.filter(memberships__club=club)),
        Membership: ids(Membership.objects.filter(club=club)),
        Team: ids(Team.objects.filter(club=club)),
        Game: ids(Game.objects.filter(club=club)),
        Season: ids(Season.objects.filter(club=club)),
        Event: ids(Event.objects.filter(club=club)),
        Entry: ids(Entry.objects.filter(event=event)),
        Round: ids(Round.objects.filter(event=event)),
        Table: ids(Table.objects.filter(event=event)),
        Pairing: ids(Pairing.objects.filter(event=event)),
        Registration: ids(Registration.objects.filter(event=event)),
        Registrant: ids(Registrant.objects.filter(registration__event=event)),
    }


# --- The database, before and after -----------------------------------------------------------


def snapshot_models() -> list[tuple[str, Any]]:
    from scoring.models import GameChange
    from tournaments.models import Substitution

    return [
        ("Club", Club.objects),
        ("Player", Player.objects),
        ("Membership", Membership.objects),
        ("Team", Team.objects),
        ("Game", Game.objects),
        ("Hand", Hand.with_pending),  # pending hands too
        ("GameChange", GameChange.objects),
        ("Season", Season.objects),
        ("Event", Event.objects),
        ("Entry", Entry.objects),
        ("Round", Round.objects),
        ("Table", Table.objects),
        ("Pairing", Pairing.objects),
        ("Substitution", Substitution.objects),
        ("GenerationJob", GenerationJob.objects),
        ("ReportJob", ReportJob.objects),
        ("Registration", Registration.objects),
        ("Registrant", Registrant.objects),
        ("PushSubscription", PushSubscription.objects),
        ("OutboxMessage", OutboxMessage.objects),
    ]


def snapshot() -> dict[str, dict[Any, dict[str, Any]]]:
    """Every row of every model a write of these could touch, by primary key."""
    return {
        name: {row["id"]: row for row in manager.order_by("pk").values()}
        for name, manager in snapshot_models()
    }


def reaching(owned: dict[type[Any], set[int]], before: Any, after: Any) -> list[str]:
    """The rows of ``owned`` that changed or went, and the new rows that name one of them."""
    found = []
    for name, manager in snapshot_models():
        model = manager.model
        mine = owned.get(model, set())
        for pk in sorted(mine):
            if after[name].get(pk) != before[name].get(pk):
                found.append(f"{name} {pk} (the other club's) changed or went")
        links = [
            (f.attname, f.related_model)
            for f in model._meta.concrete_fields
            if f.many_to_one and f.related_model in owned
        ]
        for pk in sorted(set(after[name]) - set(before[name])):
            for column, target in links:
                if after[name][pk][column] in owned[target]:
                    value = after[name][pk][column]
                    found.append(
                        f"new {name} {pk} names the other club's {target.__name__} {value}"
                    )
    return found


def changes(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What differs, model by model: rows added, removed, and fields changed."""
    found = []
    for name, rows in before.items():
        now = after[name]
        if len(now) != len(rows):
            found.append(f"{name}: {len(rows)} rows before, {len(now)} after")
        for pk in sorted(set(now) - set(rows)):
            found.append(f"{name} {pk} added: {now[pk]}")
        for pk in sorted(set(rows) - set(now)):
            found.append(f"{name} {pk} removed")
        for pk in sorted(set(rows) & set(now)):
            moved = {k: (v, now[pk][k]) for k, v in rows[pk].items() if now[pk][k] != v}
            if moved:
                found.append(f"{name} {pk} changed: {moved}")
    return found
