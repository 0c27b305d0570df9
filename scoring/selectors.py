"""Reads of games and hands, shaped so that a page or endpoint costs a fixed number of queries."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet, prefetch_related_objects

from kaiser_club.actors import Actor
from kaiser_club.request_limits import LARGEST_ID
from kaiser_club.roles import Role
from kaiser_club.selectors import AnyUser, club_ids_with_role

from .door_read import game_as_read_by_a_door
from .gates import gate_reads, gate_related
from .models import Game, GameChange, Hand
from .permissions import GameAction
from .results import result_reads, result_related

GAME_RELATED = [
    "club",
    "ns_team__player_one",
    "ns_team__player_two",
    "ew_team__player_one",
    "ew_team__player_two",
    "north",
    "east",
    "south",
    "west",
]


# A game's four seats are its two teams' players: a single game is read with its teams and
# players only, and its seats taken from them (four joins fewer: ``seats_from_teams``).
GAME_TEAMS = [
    "club",
    "ns_team__player_one",
    "ns_team__player_two",
    "ew_team__player_one",
    "ew_team__player_two",
]
SEATS = ("north", "east", "south", "west")
# Of the teams and players, what a game's answer shows (scoring.api.serializers.GameSerializer).
TEAMS_SHOWN = [
    f"{team}__{column}"
    for team in ("ns_team", "ew_team")
    for column in ("name", "club", "player_one__name", "player_two__name")
]


def seats_from_teams(game: Game) -> Game:
    """Sets the game's seats from the players of its teams read with it (``GAME_TEAMS``); a
    seat held by no team player (never, by the game's own checks) is read when asked for."""
    players = {
        player.id: player
        for team in (game.ns_team, game.ew_team)
        for player in (team.player_one, team.player_two)
    }
    for seat in SEATS:
        player = players.get(getattr(game, f"{seat}_id"))
        if player is not None:
            setattr(game, seat, player)  # the same id: the seat's relation is read with it
    return game


def sees_games(role: Role | None) -> bool:
    """Who may see a club's games: a role at least ``GameAction.READ`` in the club (staff act
    as its admins). The one statement of it: ``games_visible_to`` filters by it and
    ``game_for_actor`` judges the role its one statement read by it."""
    return role is not None and role.includes(GameAction.READ.value)


def games_visible_to(*, user: AnyUser) -> QuerySet[Game]:
    """Games of the clubs where the user ``sees_games`` (every game for staff), with what
    their results read (``scoring.results``)."""
    qs = Game.objects.select_related(*GAME_RELATED, *result_related())
    club_ids = club_ids_with_role(user=user, at_least=GameAction.READ.value)
    return qs if club_ids is None else qs.filter(club_id__in=club_ids)


def game_for_actor(*, actor: Actor, game_id: int) -> Game | None:
    """The game if the actor may see it (``games_visible_to``), with its teams and seats and
    what the event's rules and its result read of it (``scoring.gates``, ``scoring.results``),
    in ONE statement (``door_read``): the actor's role in the game's club comes with it and is
    remembered by the actor."""
    user = actor.user
    if not user.is_authenticated or not 0 < game_id <= LARGEST_ID:
        return None  # beyond any id a row can have (and the column's range): no game
    staff = getattr(user, "is_staff", False)
    game = game_as_read_by_a_door(
        game_id=game_id,
        user_id=None if staff else user.pk,
        related=[*GAME_TEAMS, *gate_related(), *result_related()],
        reads=door_reads(),
    )
    if game is None:
        return None
    found = game.actor_role if not staff else Role.CLUB_ADMIN  # type: ignore[attr-defined]
    role = None if found is None else Role(found)
    if not sees_games(role):
        return None  # not a game of the reader's clubs: as if there were none
    actor.remember_role(game.club_id, role)
    return seats_from_teams(game)


def door_reads() -> list[str]:
    """Of the rows read with a game at a door, the columns read: its club's name, what its
    answer shows of its teams, what the event's rules and its result read."""
    return ["club__name", *TEAMS_SHOWN, *gate_reads(), *result_reads()]


def game_with_hands_for(*, actor: Actor, game_id: int) -> Game | None:
    """The game if the actor may see it (``game_for_actor``: one query, the role remembered)
    and its hands in order (one more), as ``game.hands.all()``: what the game's page and the
    API's answer for a game show."""
    game = game_for_actor(actor=actor, game_id=game_id)
    if game is None:
        return None
    prefetch_related_objects([game], Prefetch("hands", queryset=Hand.objects.order_by("number")))
    return game


def game_with_hands(*, game_id: int) -> Game | None:
    """A game and its hands, whoever asks (after a write its writer was allowed to make);
    for a reader, ``game_with_hands_for``."""
    return (
        Game.objects.select_related(*GAME_RELATED, *result_related())
        .prefetch_related(Prefetch("hands", queryset=Hand.objects.order_by("number")))
        .filter(id=game_id)
        .first()
    )


def game_history(*, game_id: int) -> QuerySet[GameChange]:
    return GameChange.objects.filter(game_id=game_id).select_related("by").order_by("at", "id")
