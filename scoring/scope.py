"""Which players and teams a club may name in its writes.

A club knows its members, its former members, the visitors it typed in (``Player.host_club``)
and everyone who has played in one of its partnerships (a visitor seated at one of its events):
``kaiser_club.people`` says so in one place. A
write made for a club may name only those: an organiser of club A cannot put club B's members in
a team, a game or an entry, and so cannot change their statistics or learn their names."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q, QuerySet
from django.utils.translation import gettext

from kaiser_club import people
from kaiser_club.errors import InvalidInput
from kaiser_club.models import Club, Player

from .models import Team


def players_known_to(*, club_id: int) -> QuerySet[Player]:
    """Its members, former members and visitors, and the players of its partnerships
    (``kaiser_club.people``, where this app adds the partnerships)."""
    return people.players_known_to(club_ids=[club_id])


def players_open_to(*, club_id: int) -> QuerySet[Player]:
    """The players a club may name: those it knows, and records no club knows yet."""
    return Player.objects.filter(
        Q(id__in=players_known_to(club_id=club_id).values("id"))
        | Q(id__in=people.players_of_no_club().values("id"))
    )


def _tied_to_a_club(player_ids: list[int]) -> QuerySet[Player]:
    return people.players_known_to(club_ids=None).filter(id__in=player_ids)


def players_of_other_clubs(*, club: Club, players: Iterable[Player]) -> list[Player]:
    """Those of ``players`` that belong to other clubs and not to this one, in the order given
    (a record no club knows yet belongs to none: the club that names it first adopts it)."""
    wanted = {p.id: p for p in players}
    if not wanted:
        return []
    known = set(
        players_known_to(club_id=club.id).filter(id__in=list(wanted)).values_list("id", flat=True)
    )
    rest = [pid for pid in wanted if pid not in known]
    if not rest:
        return []
    elsewhere = set(_tied_to_a_club(rest).values_list("id", flat=True))
    return [wanted[pid] for pid in rest if pid in elsewhere]


def not_known(*, club: Club, player_id: int | str, field: str | None = None) -> InvalidInput:
    """The refusal of a player id the club may not name: another club's player, or an id that
    does not exist (said the same way, so that the answer tells nothing about other clubs)."""
    message = gettext(
        "Player %(id)s is not a member or a known visitor of %(club)s: choose one of its "
        "players, or type a visitor in by name."
    ) % {"id": player_id, "club": club.name}
    return InvalidInput(
        message, code="other_club", field_errors={field: [message]} if field else None
    )


def require_known_players(
    *, club: Club, players: Iterable[Player], field: str | None = None
) -> None:
    """Refuses players of other clubs, without saying their names (the actor may not see
    them); records of no club become the club's visitors."""
    players = list(players)
    foreign = players_of_other_clubs(club=club, players=players)
    if foreign:
        raise not_known(club=club, player_id=foreign[0].id, field=field)
    orphans = [p.id for p in players if p.host_club_id is None]
    if orphans:
        Player.objects.filter(
            id__in=orphans, host_club=None, memberships=None, former_memberships=None
        ).update(host_club=club)


def require_club_team(*, club: Club, team: Team, field: str | None = None) -> None:
    if team.club_id == club.id:
        return
    message = gettext("Team %(id)s is not a team of %(club)s.") % {"id": team.id, "club": club.name}
    raise InvalidInput(
        message, code="other_club", field_errors={field: [message]} if field else None
    )
