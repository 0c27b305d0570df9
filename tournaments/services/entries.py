"""Registration: teams of two (or single players, for progressive events), typed in or
imported from CSV; check-in; late entry; withdrawal; a substitute for one game.

Each action takes the actor and refuses anyone but an organiser of the event's club before it
writes anything. The steps named ``…_unchecked`` apply the event's rules and ask nothing of who
acts: for callers that have decided that themselves (the CSV import, the players' sign-ups, the
demo, an event's transfer)."""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from kaiser_club.actors import Actor
from kaiser_club.errors import InvalidInput
from kaiser_club.members.services import lock_club
from kaiser_club.models import Club, Player
from kaiser_club.people import NEW, Ambiguity, Choice, ChooseRecord, Pool, ambiguity
from kaiser_club.sentences import N_
from kaiser_club.text import clean_reason, clean_text, clean_within
from scoring import services as scoring
from scoring.choices import GameStatus
from scoring.models import Team
from scoring.rules import Seat
from scoring.scope import (
    not_known,
    players_of_other_clubs,
    players_open_to,
    require_known_players,
)
from scoring.services.teams import TEAM_NAME_TOO_LONG

from ..choices import EntryStatus, EventStatus, Format, ResultKind, SlotSide
from ..models import Entry, Event, Pairing, Round, Substitution
from .locks import lock_event
from .organisers import require_organiser
from .results import pairing_forfeit_unchecked

NAME_MAX = Player._meta.get_field("name").max_length or 120
TEAM_NAME_MAX = Entry._meta.get_field("name").max_length or 160

# Formats whose whole draw is fixed by the first round: no one joins once it has started.
FIXED_DRAW = {
    Format.ROUND_ROBIN,
    Format.SINGLE_ELIMINATION,
    Format.DOUBLE_ELIMINATION,
    Format.POOLS,
    Format.ROUND_ROBIN_KNOCKOUT,
}


def late_entry(event: Event) -> bool:
    """Whether an entry made now is late; refuses one the format cannot take any more."""
    rounds = Round.objects.filter(event=event)
    if not rounds.exists():
        return False
    if Format(event.format) in FIXED_DRAW:
        if rounds.exclude(status="ready").exists():
            raise InvalidInput(
                N_(
                    "The %(format)s draw has started, so no entry can join it now.",
                    format=Format(event.format).label.lower(),
                )
            )
        return False  # the draw will be made again, with this entry in it
    return True


def player_entered(event: Event, player_ids: set[int], *, exclude: int | None = None) -> str:
    """The name of an active entry of the event that already holds one of these players."""
    qs = Entry.objects.filter(event=event).exclude(status=EntryStatus.WITHDRAWN)
    if exclude:
        qs = qs.exclude(id=exclude)
    found = qs.filter(
        Q(player_id__in=player_ids)
        | Q(team__player_one_id__in=player_ids)
        | Q(team__player_two_id__in=player_ids)
    ).first()
    return found.name if found else ""


def team_for(*, club: Club, player_one: Player, player_two: Player, name: str = "") -> Team:
    """The club's team of these two players (either order), or a new one. A name given is
    the partnership's name from now on (each entry keeps the name it was entered under).
    The club's row is locked first: two events of the club entering the same pair at once
    find one team, not two."""
    lock_club(club.id)
    found = (
        Team.objects.filter(club=club)
        .filter(
            Q(player_one=player_one, player_two=player_two)
            | Q(player_one=player_two, player_two=player_one)
        )
        .order_by("id")
        .first()
    )
    if found is not None:
        if name and found.name != name:
            found.name = name
            found.save(update_fields=["name"])
        return found
    return Team.objects.create(club=club, player_one=player_one, player_two=player_two, name=name)


def _check_seed(event: Event, seed: int | None, *, exclude: int | None = None) -> None:
    if seed is None:
        return
    others = Entry.objects.filter(event=event, seed=seed)
    if exclude is not None:
        others = others.exclude(id=exclude)
    if seed < 1:
        raise InvalidInput(N_("A seed is 1 or more."), field_errors={"seed": [N_("1 or more.")]})
    taken = others.first()
    if taken is not None:
        raise InvalidInput(
            N_("Seed %(seed)s is already %(name)s's.", seed=seed, name=taken.name),
            field_errors={"seed": [N_("Taken.")]},
        )


@transaction.atomic
def entry_register_team(
    *,
    actor: Actor,
    event: Event,
    player_one: Player,
    player_two: Player,
    name: str = "",
    seed: int | None = None,
    rating: float | None = None,
    club: Club | None = None,
) -> Entry:
    require_organiser(actor, event)
    return entry_register_team_unchecked(
        event=event,
        player_one=player_one,
        player_two=player_two,
        name=name,
        seed=seed,
        rating=rating,
        club=club,
    )


@transaction.atomic
def entry_register_team_unchecked(
    *,
    event: Event,
    player_one: Player,
    player_two: Player,
    name: str = "",
    seed: int | None = None,
    rating: float | None = None,
    club: Club | None = None,
) -> Entry:
    event = lock_event(event.id)
    # Then the club's row: entries of the club's other events may name the same players (whose
    # records a club adopts below) and the same pair (one team): one writer at a time.
    lock_club(event.club_id)
    name = clean_within(name, TEAM_NAME_MAX, too_long=TEAM_NAME_TOO_LONG)
    if event.individual:
        raise InvalidInput(N_("A progressive event takes single players, not teams."))
    if player_one.id == player_two.id:
        raise InvalidInput(N_("A team needs two different players."))
    require_known_players(club=event.club, players=[player_one], field="player_one")
    require_known_players(club=event.club, players=[player_two], field="player_two")
    clash = player_entered(event, {player_one.id, player_two.id})
    if clash:
        raise InvalidInput(
            N_(
                "%(player_one)s or %(player_two)s already plays in %(clash)s.",
                player_one=player_one.name,
                player_two=player_two.name,
                clash=clash,
            )
        )
    _check_seed(event, seed)
    late = late_entry(event)
    team = team_for(club=event.club, player_one=player_one, player_two=player_two, name=name)
    return Entry.objects.create(
        event=event,
        team=team,
        name=name or str(team),
        seed=seed,
        rating=rating,
        club=club or event.club,
        late=late,
    )


@transaction.atomic
def entry_register_player(
    *,
    actor: Actor,
    event: Event,
    player: Player,
    seed: int | None = None,
    rating: float | None = None,
    club: Club | None = None,
) -> Entry:
    require_organiser(actor, event)
    return entry_register_player_unchecked(
        event=event, player=player, seed=seed, rating=rating, club=club
    )


@transaction.atomic
def entry_register_player_unchecked(
    *,
    event: Event,
    player: Player,
    seed: int | None = None,
    rating: float | None = None,
    club: Club | None = None,
) -> Entry:
    event = lock_event(event.id)
    if not event.individual:
        raise InvalidInput(N_("This event takes teams of two; register a partnership."))
    require_known_players(club=event.club, players=[player], field="player")
    clash = player_entered(event, {player.id})
    if clash:
        raise InvalidInput(N_("%(player)s is already entered.", player=player.name))
    _check_seed(event, seed)
    return Entry.objects.create(
        event=event,
        player=player,
        name=player.name,
        seed=seed,
        rating=rating,
        club=club or event.club,
        late=late_entry(event),
    )


@transaction.atomic
def entry_update(
    *,
    actor: Actor,
    entry: Entry,
    seed: int | None = None,
    rating: float | None = None,
    name: str = "",
) -> Entry:
    """Changes an entry's seed, rating or name (seeds only before the first round). The event
    is locked first, as for every entry, so two entries cannot take one seed at once."""
    require_organiser(actor, entry.event)
    lock_event(entry.event_id)
    entry = Entry.objects.select_for_update().get(id=entry.id)
    if seed != entry.seed:
        if Round.objects.filter(event_id=entry.event_id).exists():
            raise InvalidInput(N_("Seeds are fixed once the first round exists."))
        _check_seed(entry.event, seed, exclude=entry.id)
    entry.seed, entry.rating = seed, rating
    name = clean_within(name, TEAM_NAME_MAX, too_long=TEAM_NAME_TOO_LONG)
    if name:
        entry.name = name
    entry.save(update_fields=["seed", "rating", "name"])
    return entry


@transaction.atomic
def entry_check_in(*, actor: Actor, entry: Entry, checked_in: bool = True) -> Entry:
    require_organiser(actor, entry.event)
    return entry_check_in_unchecked(entry=entry, checked_in=checked_in)


@transaction.atomic
def entry_check_in_unchecked(*, entry: Entry, checked_in: bool = True) -> Entry:
    entry = Entry.objects.select_for_update().get(id=entry.id)
    if entry.status == EntryStatus.WITHDRAWN:
        raise InvalidInput(
            N_("%(name)s has withdrawn; register the team again instead.", name=entry.name)
        )
    entry.status = EntryStatus.CHECKED_IN if checked_in else EntryStatus.REGISTERED
    entry.checked_in_at = timezone.now() if checked_in else None
    entry.save(update_fields=["status", "checked_in_at"])
    return entry


@transaction.atomic
def entry_check_in_all(*, actor: Actor, event: Event) -> int:
    require_organiser(actor, event)
    return Entry.objects.filter(event=event, status=EntryStatus.REGISTERED).update(
        status=EntryStatus.CHECKED_IN, checked_in_at=timezone.now()
    )


@transaction.atomic
def entry_withdraw(*, actor: Actor, entry: Entry, reason: str = "") -> list[Pairing]:
    """The entry is no longer paired; its played games stand. Each game it has not finished
    is forfeited (a bracket's later games too, as the team reaches them). Returns the
    pairings forfeited now."""
    require_organiser(actor, entry.event)
    return entry_withdraw_unchecked(entry=entry, by=actor.by, reason=reason)


@transaction.atomic
def entry_withdraw_unchecked(
    *, entry: Entry, by: User | None = None, reason: str = ""
) -> list[Pairing]:
    lock_event(entry.event_id)
    entry = Entry.objects.select_for_update().get(id=entry.id)
    if entry.status == EntryStatus.WITHDRAWN:
        raise InvalidInput(N_("%(name)s has already withdrawn.", name=entry.name))
    entry.status = EntryStatus.WITHDRAWN
    entry.withdrawn_at = timezone.now()
    entry.save(update_fields=["status", "withdrawn_at"])
    open_rows = (
        Pairing.objects.filter(event_id=entry.event_id, result=ResultKind.PENDING, cancelled=False)
        .filter(Q(home=entry) | Q(away=entry))
        .filter(home__isnull=False, away__isnull=False)
        .order_by("round__number", "id")
    )
    forfeited = []
    for row in open_rows:
        side = SlotSide.HOME if row.home_id == entry.id else SlotSide.AWAY
        forfeited.append(
            pairing_forfeit_unchecked(
                pairing=row, forfeiting=side, by=by, reason=reason or "Withdrawn"
            )
        )
    return forfeited


@transaction.atomic
def entry_reinstate(*, actor: Actor, entry: Entry) -> Entry:
    """Undoes a withdrawal: the entry is paired again from the next round drawn (checked in
    again if it had checked in). The games forfeited when it withdrew stand as forfeits; a
    finished event takes no one back."""
    require_organiser(actor, entry.event)
    event = lock_event(entry.event_id)
    entry = Entry.objects.select_for_update().get(id=entry.id)
    if entry.status != EntryStatus.WITHDRAWN:
        raise InvalidInput(N_("%(name)s has not withdrawn.", name=entry.name))
    if event.status == EventStatus.FINISHED:
        raise InvalidInput(
            N_(
                "%(name)s has finished: %(entry_name)s cannot come back.",
                name=event.name,
                entry_name=entry.name,
            )
        )
    entry.status = EntryStatus.CHECKED_IN if entry.checked_in_at else EntryStatus.REGISTERED
    entry.withdrawn_at = None
    entry.save(update_fields=["status", "withdrawn_at"])
    return entry


SEATS = {Seat.NORTH: "north", Seat.EAST: "east", Seat.SOUTH: "south", Seat.WEST: "west"}


@transaction.atomic
def pairing_substitute(
    *,
    actor: Actor,
    pairing: Pairing,
    replaced: int,
    substitute: int | None = None,
    substitute_name: str = "",
    substitute_new: bool = False,
    reason: str = "",
) -> Substitution:
    """``replaced`` is the id of a player at the game; the substitute is a player id the
    event's club knows (``substitute``) or a typed name (``substitute_name``; with
    ``substitute_new``, a new visitor record even when records of that name exist)."""
    require_organiser(actor, pairing.event)
    return pairing_substitute_unchecked(
        pairing=pairing,
        replaced_id=replaced,
        substitute_id=substitute,
        substitute_name=substitute_name,
        substitute_choice=NEW if substitute_new else None,
        by=actor.by,
        reason=reason,
    )


@transaction.atomic
def pairing_substitute_unchecked(
    *,
    pairing: Pairing,
    replaced_id: int,
    substitute_id: int | None = None,
    substitute_name: str = "",
    substitute_choice: Choice | None = None,
    by: User | None = None,
    reason: str = "",
) -> Substitution:
    """A substitute plays this one game in the seat of the player ``replaced_id``; the team
    stays the same, and its results count for the team as entered.

    The substitute is a player the event's club knows (``substitute_id``), or a typed name
    (``substitute_name``): the club's known player of that name (when more than one could be,
    ChooseRecord asks, and ``substitute_choice`` answers: an id, or NEW), else a new visitor
    record of the club. Nothing is written, no player record made, until every check has
    passed."""
    event = lock_event(pairing.event_id)
    club = Club.objects.get(id=event.club_id)
    row = Pairing.objects.select_related("game", "home", "away").get(id=pairing.id)
    game = row.game
    if game is None:
        raise InvalidInput(N_("This pairing has no game yet; substitute once it exists."))
    if game.status == GameStatus.FINISHED:
        raise InvalidInput(N_("This game is over; its players can no longer change."))
    seats = {getattr(game, f"{field}_id"): seat for seat, field in SEATS.items()}
    seat = seats.get(replaced_id)
    if seat is None:
        message = N_("Player %(replaced_id)s does not sit at this game.", replaced_id=replaced_id)
        raise InvalidInput(message, field_errors={"replaced": [message]})
    replaced = getattr(game, SEATS[seat])
    entry = row.home if seat.team.value == "ns" else row.away
    if entry is None:  # a progressive game: the replaced player's own entry
        entry = Entry.objects.filter(event_id=row.event_id, player=replaced).first()
    if entry is None:
        raise InvalidInput(N_("%(replaced)s is not entered in this event.", replaced=replaced))
    substitute, name = _substitute(
        club=club, player_id=substitute_id, name=substitute_name, choice=substitute_choice
    )
    if substitute is not None and substitute.id in seats:
        message = N_("%(substitute)s already plays in this game.", substitute=substitute.name)
        raise InvalidInput(message, field_errors={"substitute": [message]})
    if substitute is None:
        substitute = Player.objects.create(name=name, host_club=club)
    else:
        require_known_players(club=club, players=[substitute], field="substitute")
    scoring.game_seat_player(game_id=game.id, seat=seat, player=substitute)
    return Substitution.objects.create(
        game=game,
        entry=entry,
        seat=int(seat),
        replaced=replaced,
        substitute=substitute,
        reason=clean_reason(reason),
        by=by,
    )


def _substitute(
    *, club: Club, player_id: int | None, name: str, choice: Choice | None = None
) -> tuple[Player | None, str]:
    """The substitute the request names, found without writing anything: the player, or None
    and the name of the visitor record to make."""
    if player_id is not None and name.strip():
        message = N_("Give the substitute by id or by name, not both.")
        raise InvalidInput(message, field_errors={"substitute": [message]})
    if player_id is None:
        if not name.strip():
            message = N_("Give the substitute: a player's id, or a name.")
            raise InvalidInput(message, field_errors={"substitute": [message]})
        found = known_player_named(club=club, name=name, choice=choice, field="substitute")
        return found, typed_name(name)
    found = Player.objects.filter(id=player_id).first()
    if found is None or players_of_other_clubs(club=club, players=[found]):
        raise not_known(club=club, player_id=player_id, field="substitute")
    return found, found.name


def typed_name(name: str) -> str:
    name = clean_text(name)
    if not name:
        raise InvalidInput(N_("Type the player's name."))
    if len(name) > NAME_MAX:
        raise InvalidInput(
            N_(
                "A name has at most %(most)s characters; this one has %(length)s.",
                most=NAME_MAX,
                length=len(name),
            )
        )
    return name


def players_named(
    *, club: Club, names: Mapping[str, str], choices: Mapping[str, Choice] | None = None
) -> dict[str, Player | None]:
    """The record each typed name means for the club (field -> player, or None: no record
    could be this person, a new one is to be made), among the players the club knows (its
    members, former members, visitors and the players of its partnerships) and records of no
    club yet; another club's players are never looked at. A name more than one record could
    be is the person's choice: ChooseRecord lists them, for every such field at once, unless
    ``choices`` says which record (an id among those the club may name) or NEW. Reads only."""
    choices = choices or {}
    pool = Pool(players_open_to(club_id=club.id))
    found: dict[str, Player | None] = {}
    unsure: list[Ambiguity] = []
    for field_name, name in names.items():
        typed = typed_name(name)
        choice = choices.get(field_name)
        if isinstance(choice, int) and pool.by_id(choice) is None:
            raise not_known(club=club, player_id=choice, field=field_name)
        match = pool.match(name=typed, choice=choice)
        if match.ambiguous:
            unsure.append(ambiguity(field_name, typed, match.candidates, club=club))
        found[field_name] = match.player
    if unsure:
        raise ChooseRecord(unsure)
    return found


def known_player_named(
    *, club: Club, name: str, choice: Choice | None = None, field: str = "player"
) -> Player | None:
    """The record a typed name means for the club (``players_named``), or None."""
    return players_named(
        club=club, names={field: name}, choices={field: choice} if choice is not None else None
    )[field]


def _players_by_names(
    club: Club, names: Mapping[str, str], choices: Mapping[str, Choice] | None
) -> dict[str, Player]:
    found = players_named(club=club, names=names, choices=choices)
    return {
        f: p if p is not None else Player.objects.create(name=typed_name(names[f]), host_club=club)
        for f, p in found.items()
    }


@transaction.atomic
def entry_register_team_by_names(
    *,
    actor: Actor,
    event: Event,
    player_one: str,
    player_two: str,
    name: str = "",
    seed: int | None = None,
    rating: float | None = None,
    choices: Mapping[str, Choice] | None = None,
) -> Entry:
    """A team typed in by its players' names (the entries page, a late entry): each name
    finds the club's record (``players_named``: a choice when more than one could be the
    person) or makes a visitor record, and a refused entry makes none."""
    require_organiser(actor, event)
    found = _players_by_names(
        event.club, {"player_one": player_one, "player_two": player_two}, choices
    )
    return entry_register_team_unchecked(
        event=event,
        player_one=found["player_one"],
        player_two=found["player_two"],
        name=name,
        seed=seed,
        rating=rating,
    )


@transaction.atomic
def entry_register_player_by_name(
    *,
    actor: Actor,
    event: Event,
    player: str,
    seed: int | None = None,
    rating: float | None = None,
    choices: Mapping[str, Choice] | None = None,
) -> Entry:
    """A single player typed in by name (a progressive event); a refused entry makes no
    player record."""
    require_organiser(actor, event)
    return entry_register_player_unchecked(
        event=event,
        player=_players_by_names(event.club, {"player": player}, choices)["player"],
        seed=seed,
        rating=rating,
    )
