"""What a sign-up shows: its state and place in line (the sign-up page's answer and the API's),
and a registrant's own page (the page, its e-mails): where to sit in the round drawn, the
results so far, the place in the standings."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Q
from django.urls import reverse

from kaiser_club.sentences import listed

from .choices import EntryStatus, ResultKind
from .models import Event, Pairing, Registrant, Registration, RegistrationStatus, Round
from .public import selectors as public
from .public.wording import GameLine, game_line, placing_label
from .standings import event_tables

SEAT_FIELDS = ("north", "east", "south", "west")


@dataclass(frozen=True)
class SignUpState:
    """A sign-up's state: ``status`` (pending, registered, waiting, refused, withdrawn), its
    place on the waiting list (1: next in) and the state said in words."""

    id: int
    status: str
    place: int | None
    label: str
    refusal: str


def waiting_place(registration: Registration) -> int | None:
    if registration.status != RegistrationStatus.WAITING or registration.waiting_order is None:
        return None
    ahead = Registration.objects.filter(
        event_id=registration.event_id,
        status=RegistrationStatus.WAITING,
        waiting_order__lt=registration.waiting_order,
    ).count()
    return ahead + 1


def sign_up_state(registration: Registration) -> SignUpState:
    return SignUpState(
        id=registration.id,
        status=registration.status,
        place=waiting_place(registration),
        label=str(RegistrationStatus(registration.status).label),
        refusal=registration.refusal,
    )


def registrant_by_secret(event_id: int, secret: str) -> Registrant | None:
    """The registrant whose private link this is (None: no such link, or renewed since)."""
    if not secret or len(secret) > 64:
        return None
    return (
        Registrant.objects.filter(registration__event_id=event_id, secret=secret)
        .select_related("registration__event__club", "registration__entry", "player")
        .first()
    )


def registrant_of_user(event_id: int, user: Any) -> Registrant | None:
    """A signed-in player's own sign-up for the event (their private page, from "My page")."""
    if not getattr(user, "is_authenticated", False):
        return None
    return (
        Registrant.objects.filter(registration__event_id=event_id, player__user=user)
        .order_by("-registration__created_at")
        .first()
    )


def own_page_path(registrant: Registrant) -> str:
    return reverse("public:own", args=[registrant.registration.event_id, registrant.secret])


def own_page_url(registrant: Registrant) -> str:
    base = registrant.registration.base_url.rstrip("/")
    return f"{base}{own_page_path(registrant)}"


def stop_emails_url(registrant: Registrant) -> str:
    base = registrant.registration.base_url.rstrip("/")
    path = reverse("public:own-stop", args=[registrant.registration.event_id, registrant.secret])
    return f"{base}{path}"


@dataclass(frozen=True)
class Seat:
    """Where the registrant sits in a round drawn."""

    round_: Round
    table: int | None
    seat: str  # north, east, south, west; "" before the game is made
    partner: str
    opponents: list[str]
    bye: bool
    started_at: datetime | None
    line: GameLine

    @property
    def opponents_text(self) -> str:
        """The opponents as a list in the reader's language ("A and B")."""
        return listed(self.opponents)


@dataclass(frozen=True)
class OwnPage:
    event: Event
    registrant: Registrant
    state: SignUpState
    partners: list[str]
    entry_state: str
    seat: Seat | None
    lines: list[GameLine] = field(default_factory=list)
    placing: str = ""


def _pairings(registrant: Registrant) -> list[Pairing]:
    registration = registrant.registration
    entry = registration.entry
    if entry is None:
        return []
    if entry.player_id is not None:  # a progressive event: the player's own games
        return public.pairings_of_player(registration.event, entry.player)  # type: ignore[arg-type]
    return public.pairings_of_entry(entry)


def _names(pairing: Pairing) -> dict[str, str]:
    game = pairing.game
    if game is None:
        return {}
    return {seat: getattr(game, seat).name for seat in SEAT_FIELDS if getattr(game, seat, None)}


def seat_in(registrant: Registrant, pairing: Pairing) -> Seat:
    """Where the registrant sits in this pairing's game: table, seat, partner, opponents."""
    game = pairing.game
    seat = ""
    if game is not None and registrant.player_id is not None:
        seat = next(
            (s for s in SEAT_FIELDS if getattr(game, f"{s}_id") == registrant.player_id), ""
        )
    names = _names(pairing)
    partner_seat = {"north": "south", "south": "north", "east": "west", "west": "east"}
    partner = names.get(partner_seat.get(seat, ""), "")
    opponents = [
        names[s] for s in SEAT_FIELDS if s in names and s not in (seat, partner_seat.get(seat))
    ]
    if not seat:  # the game is not made yet: the entries' names
        line = game_line(pairing)
        mine = pairing.home_id == registrant.registration.entry_id
        other = line.away if mine else line.home
        opponents = [other.name] if other is not None else []
    return Seat(
        round_=pairing.round,
        table=pairing.table.number if pairing.table is not None else None,
        seat=seat,
        partner=partner,
        opponents=opponents,
        bye=pairing.away_id is None and pairing.away_team_id is None,
        started_at=pairing.round.started_at,
        line=game_line(pairing),
    )


def seats_in_round(round_: Round, registrants: list[Registrant]) -> list[tuple[Registrant, Seat]]:
    """Where each of ``registrants`` seated in ``round_`` sits there, from one read of
    the round's pairings (as ``own_page`` finds a registrant's game: by their entry, or in a
    progressive event by the partnerships they are in)."""
    pairings = (
        Pairing.objects.filter(round=round_, cancelled=False)
        .select_related(*public.PAIRING_RELATED, *(f"game__{s}" for s in SEAT_FIELDS))
        .order_by("match_number", "id")
    )
    by_entry: dict[int, Pairing] = {}
    by_player: dict[int, Pairing] = {}
    for pairing in pairings:
        for entry_id in (pairing.home_id, pairing.away_id):
            if entry_id is not None:
                by_entry[entry_id] = pairing
        for team in (pairing.home_team, pairing.away_team):
            if team is not None:
                by_player[team.player_one_id] = by_player[team.player_two_id] = pairing
    seats: list[tuple[Registrant, Seat]] = []
    for registrant in registrants:
        entry = registrant.registration.entry
        if entry is None:
            continue
        if entry.player_id is None:
            found = by_entry.get(entry.id)
        else:
            found = by_player.get(entry.player_id)
        if found is not None:
            seats.append((registrant, seat_in(registrant, found)))
    return seats


def own_page(registrant: Registrant) -> OwnPage:
    """Everything the registrant's own page shows (and the round's e-mail tells)."""
    registration = registrant.registration
    event = registration.event
    partners = list(
        registration.registrants.exclude(id=registrant.id)
        .order_by("position")
        .values_list("name", flat=True)
    )
    entry = registration.entry
    entry_state = ""
    if entry is not None:
        entry_state = str(EntryStatus(entry.status).label)
    pairings = _pairings(registrant)
    seat = seat_in(registrant, pairings[-1]) if pairings else None
    placing = ""
    if entry is not None and any(p.result != ResultKind.PENDING for p in pairings):
        tables = event_tables(event=event)
        target = entry.player_id if entry.player_id is not None else entry.id
        row = next((r for r in tables.placings if r.id == target), None)
        if row is None:
            row = next((r for r in tables.rows if r.id == target), None)
        placing = placing_label(getattr(row, "placing", None)) if row is not None else ""
    return OwnPage(
        event=event,
        registrant=registrant,
        state=sign_up_state(registration),
        partners=partners,
        entry_state=entry_state,
        seat=seat,
        lines=[game_line(p) for p in pairings],
        placing=placing,
    )


def registrations_of(event: Event) -> list[Registration]:
    """The organiser's list: pending first, then the waiting list in order, then the rest."""
    rows = list(
        Registration.objects.filter(event=event)
        .prefetch_related("registrants")
        .select_related("entry")
        .order_by("created_at", "id")
    )
    rank = {
        RegistrationStatus.PENDING: 0,
        RegistrationStatus.WAITING: 1,
        RegistrationStatus.REGISTERED: 2,
        RegistrationStatus.REFUSED: 3,
        RegistrationStatus.WITHDRAWN: 4,
    }
    return sorted(rows, key=lambda r: (rank[RegistrationStatus(r.status)], r.waiting_order or 0))


def registrants_in_round(round_: Round) -> list[Registrant]:
    """The registrants seated in a round: those whose entry plays in it."""
    entry_ids = Pairing.objects.filter(round=round_, cancelled=False).values_list(
        "home_id", "away_id"
    )
    ids = {i for pair in entry_ids for i in pair if i is not None}
    players = Pairing.objects.filter(round=round_, cancelled=False).values_list(
        "game__north_id", "game__east_id", "game__south_id", "game__west_id"
    )
    player_ids = {i for row in players for i in row if i is not None}
    return list(
        Registrant.objects.filter(
            Q(registration__entry_id__in=ids) | Q(registration__entry__player_id__in=player_ids),
            registration__event_id=round_.event_id,
            registration__status=RegistrationStatus.REGISTERED,
        ).select_related("registration__event", "registration__entry", "player")
    )
