"""Reads of events, shaped so that each page or endpoint costs a fixed number of queries."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Count, Prefetch, Q, QuerySet

from kaiser_club.errors import NotFound
from kaiser_club.refusals import role_refused
from kaiser_club.roles import Role
from kaiser_club.selectors import AnyUser, club_ids_with_role
from kaiser_club.sentences import N_
from scoring.choices import GameStatus
from scoring.ratings import current_ratings

from .choices import ResultKind
from .models import Entry, Event, GenerationJob, Pairing, Round, Season, Table
from .permissions import EventAction, may_on_event
from .services.tables import normalise_code

PAIRING_RELATED = [
    "table",
    "home",
    "away",
    "game",
    "home_team__player_one",
    "home_team__player_two",
    "away_team__player_one",
    "away_team__player_two",
]


def events_visible_to(*, user: AnyUser) -> QuerySet[Event]:
    """Events of the clubs where the user is at least a player (all of them for staff)."""
    qs = Event.objects.select_related("club", "season")
    ids = club_ids_with_role(user=user, at_least=Role.PLAYER)
    return qs if ids is None else qs.filter(club_id__in=ids)


def seasons_visible_to(*, user: AnyUser) -> QuerySet[Season]:
    qs = Season.objects.select_related("club").annotate(event_count=Count("events"))
    ids = club_ids_with_role(user=user, at_least=Role.PLAYER)
    return qs if ids is None else qs.filter(club_id__in=ids)


def event_for(*, user: AnyUser, event_id: int, action: EventAction = EventAction.READ) -> Event:
    """The event, if the user may see it (404 otherwise) and act on it (403 otherwise)."""
    event = events_visible_to(user=user).filter(id=event_id).first()
    if event is None:
        raise NotFound(N_("There is no event %(event_id)s that you can see.", event_id=event_id))
    if not may_on_event(user=user, action=action, event=event):
        raise role_refused(event.club)
    return event


def round_in(*, event: Event, number: int | str) -> Round:
    """The round an address names, within the event (NotFound otherwise): the same answer
    for the API and the pages."""
    found = Round.objects.filter(event=event, number=int(number)).select_related("event__club")
    round_ = found.first()
    if round_ is None:
        raise NotFound(N_("%(name)s has no round %(number)s.", name=event.name, number=number))
    return round_


def pairing_in(*, event: Event, pairing_id: int | str) -> Pairing:
    """The game (pairing) an address names, within the event (NotFound otherwise)."""
    pairing = (
        Pairing.objects.filter(event=event, id=int(pairing_id))
        .select_related(*PAIRING_RELATED, "round", "event__club")
        .select_related("game__north", "game__east", "game__south", "game__west")
        .first()
    )
    if pairing is None:
        raise NotFound(
            N_("%(name)s has no game %(pairing_id)s.", name=event.name, pairing_id=pairing_id)
        )
    return pairing


def season_for(*, user: AnyUser, season_id: int) -> Season:
    season = seasons_visible_to(user=user).filter(id=season_id).first()
    if season is None:
        raise NotFound(
            N_("There is no season %(season_id)s that you can see.", season_id=season_id)
        )
    return season


def entries_of(*, event: Event) -> QuerySet[Entry]:
    return Entry.objects.filter(event=event).select_related(
        "team__player_one", "team__player_two", "player", "club"
    )


def entry_ratings(entries: Iterable[Entry]) -> dict[int, float]:
    """Each entry's rating as the lists show it: the one typed at registration, else its
    players' current rating (a partnership's, the mean of its two, as the ratings reckon a
    side) once one of them has played a rated game. An entry with neither has none. The
    entries come with their players (``entries_of``)."""
    ratings = current_ratings()
    shown: dict[int, float] = {}
    for entry in entries:
        if entry.rating is not None:
            shown[entry.id] = entry.rating
            continue
        if entry.team is not None:
            people = [entry.team.player_one_id, entry.team.player_two_id]
        else:
            people = [entry.player_id] if entry.player_id else []
        if any(p in ratings.current for p in people):
            shown[entry.id] = sum(ratings.of(p) for p in people) / len(people)
    return shown


def rounds_of(*, event: Event) -> QuerySet[Round]:
    """Every round with its counts of games, games still played (their paused clocks too) and
    byes, for every page that lists rounds or says where one stands (``round_state``)."""
    playing = Q(
        pairings__result=ResultKind.PENDING,
        pairings__cancelled=False,
        pairings__game__status=GameStatus.IN_PROGRESS,
    )
    return Round.objects.filter(event=event).annotate(
        games=Count("pairings", filter=Q(pairings__game__isnull=False)),
        playing=Count("pairings", filter=playing),
        byes=Count("pairings", filter=Q(pairings__result=ResultKind.BYE)),
        paused=Count("pairings", filter=playing & Q(pairings__game__paused_at__isnull=False)),
    )


def pairings_of(*, round_: Round) -> QuerySet[Pairing]:
    return (
        Pairing.objects.filter(round=round_)
        .select_related(*PAIRING_RELATED)
        .order_by("table__number", "match_number", "id")
    )


def still_playing(*, round_: Round) -> QuerySet[Pairing]:
    """The round's games without a result yet, table by table: pairings with a game (a
    pending pairing without one, a match still waiting for its teams, is not being played)."""
    return pairings_of(round_=round_).filter(
        result=ResultKind.PENDING, cancelled=False, game__isnull=False
    )


def bracket_of(*, event: Event) -> QuerySet[Pairing]:
    return (
        Pairing.objects.filter(event=event, match_number__isnull=False)
        .select_related("table", "home", "away", "game", "round")
        .order_by("match_number")
    )


def tables_of(*, event: Event) -> QuerySet[Table]:
    """The event's tables, each with the pairing now at it (``current``: a list of at most one)."""
    now_playing = (
        Pairing.objects.filter(game__status=GameStatus.IN_PROGRESS)
        .select_related("home", "away", "game", "round")
        .order_by("-round__number")
    )
    return (
        Table.objects.filter(event=event)
        .order_by("number")
        .prefetch_related(Prefetch("pairings", queryset=now_playing, to_attr="current"))
    )


def table_for_code(code: str) -> Table | None:
    """The table a typed or scanned code opens, or None (unknown or revoked)."""
    cleaned = normalise_code(code)
    if not cleaned:
        return None
    return Table.objects.select_related("event__club").filter(code=cleaned).first()


def latest_job(*, event: Event) -> GenerationJob | None:
    return GenerationJob.objects.filter(event=event).order_by("-created_at", "-id").first()
