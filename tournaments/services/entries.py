"""Registration: teams of two (or single players, for progressive events), typed in or
imported from CSV; check-in; late entry; withdrawal; a substitute for one game.

Each action takes the actor and refuses anyone but an organiser of the event's club before it
writes anything. The steps named ``…_unchecked`` apply the event's rules and ask nothing of who
acts: for callers that have decided that themselves (the CSV import, the players' sign-ups, the
demo, an event's transfer)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

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
from .games import drop_games, event_rules, game_for, game_touched
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


@dataclass(frozen=True)
class EntryFixed:
    """What of an entry can no longer change: its seed once the event's first round exists,
    its players once one of its games has been played (a progressive event's player once the
    first round is drawn: the rounds' partnerships are made of the players entered)."""

    seed: bool
    players: bool


def entry_fixed(entry: Entry) -> EntryFixed:
    drawn = Round.objects.filter(event_id=entry.event_id).exists()
    if entry.team_id is None:
        return EntryFixed(seed=drawn, players=drawn)
    return EntryFixed(seed=drawn, players=_played(entry))


def _played(entry: Entry) -> bool:
    """Whether a game of the entry has been played: a hand, a clock started, an end, or a
    result other than a bye (a forfeit counts under the entry's players too)."""
    rows = (
        Pairing.objects.filter(Q(home_id=entry.id) | Q(away_id=entry.id), cancelled=False)
        .select_related("game")
        .only("result", "game")
    )
    return any(
        (row.result not in (ResultKind.PENDING, ResultKind.BYE))
        or (row.game is not None and game_touched(row.game))
        for row in rows
    )


PLAYERS_FIXED = N_(
    "A game of %(name)s has been played, so its players can no longer change. Record a "
    "substitution on the game where someone else plays instead."
)
PLAYER_FIXED = N_(
    "The rounds of %(event)s are drawn with %(name)s in them, so the player can no longer "
    "change. Record a substitution on the game where someone else plays instead."
)


@transaction.atomic
def entry_update(
    *,
    actor: Actor,
    entry: Entry,
    seed: int | None = None,
    rating: float | None = None,
    name: str = "",
    player_one: Player | None = None,
    player_two: Player | None = None,
    player: Player | None = None,
) -> Entry:
    """Changes an entry's seed, rating, name or players, with registration's checks: a seed
    not taken, and only before the first round; players the club knows, in no other entry of
    the event, and only until a game of the entry has been played (then a substitution says
    who played instead). A player not given stays. The event is locked first, as for every
    entry, so two entries cannot take one seed, or one player, at once."""
    require_organiser(actor, entry.event)
    return _entry_update(
        entry=entry,
        seed=seed,
        rating=rating,
        name=name,
        players={"player_one": player_one, "player_two": player_two, "player": player},
    )


@transaction.atomic
def entry_update_by_names(
    *,
    actor: Actor,
    entry: Entry,
    seed: int | None = None,
    rating: float | None = None,
    name: str = "",
    player_one: str = "",
    player_two: str = "",
    player: str = "",
    choices: Mapping[str, Choice] | None = None,
) -> Entry:
    """As ``entry_update``, the players typed by name (the entry's page): a name the entry's
    player already bears is that player; another finds the club's record as registration does
    (a choice when more than one could be the person) or makes a visitor record, and a refused
    change makes none."""
    require_organiser(actor, entry.event)
    event = Event.objects.select_related("club").get(id=entry.event_id)
    held = _players_of(entry)
    typed = {
        f: n
        for f, n in (("player_one", player_one), ("player_two", player_two), ("player", player))
        if n.strip()
    }
    kept = {f: held[f] for f, n in typed.items() if held.get(f) and clean_text(n) == held[f].name}
    asked = {f: n for f, n in typed.items() if f not in kept}
    found = _players_by_names(event.club, asked, choices) if asked else {}
    return _entry_update(
        entry=entry, seed=seed, rating=rating, name=name, players={**kept, **found}
    )


def _players_of(entry: Entry) -> dict[str, Player]:
    if entry.team_id is not None:
        team = Team.objects.select_related("player_one", "player_two").get(id=entry.team_id)
        return {"player_one": team.player_one, "player_two": team.player_two}
    return {"player": entry.player} if entry.player is not None else {}


def _entry_update(
    *,
    entry: Entry,
    seed: int | None,
    rating: float | None,
    name: str,
    players: Mapping[str, Player | None],
) -> Entry:
    event = lock_event(entry.event_id)
    lock_club(event.club_id)
    entry = Entry.objects.select_for_update().get(id=entry.id)
    name = clean_within(name, TEAM_NAME_MAX, too_long=TEAM_NAME_TOO_LONG)
    fixed = entry_fixed(entry)
    if seed != entry.seed:
        if fixed.seed:
            message = N_("Seeds are fixed once the first round exists.")
            raise InvalidInput(message, field_errors={"seed": [message]})
        _check_seed(event, seed, exclude=entry.id)
    held = _players_of(entry)
    given = {f: p for f, p in players.items() if p is not None}
    if entry.team_id is not None and "player" in given:
        raise InvalidInput(
            N_("This event takes teams of two: give the first and the second player."),
            field_errors={"player": [N_("A team's entry has two players.")]},
        )
    if entry.team_id is None and given.keys() & {"player_one", "player_two"}:
        raise InvalidInput(N_("A progressive event takes single players, not teams."))
    wanted = {**held, **given}
    if {p.id for p in wanted.values()} != {p.id for p in held.values()} or (
        len(wanted) == 2 and wanted["player_one"].id == wanted["player_two"].id
    ):
        _change_players(event, entry, fixed, held, wanted, name)
    entry.seed, entry.rating = seed, rating
    if name:
        entry.name = name
    entry.save(update_fields=["seed", "rating", "name", "team", "player"])
    return entry


def _change_players(
    event: Event,
    entry: Entry,
    fixed: EntryFixed,
    held: Mapping[str, Player],
    wanted: Mapping[str, Player],
    name: str,
) -> None:
    """Points the entry at its new players (a team entry: the club's partnership of the two,
    found or made; its games drawn and not yet played made again for that partnership)."""
    if fixed.players:
        sentence = PLAYERS_FIXED if entry.team_id is not None else PLAYER_FIXED
        message = sentence.with_params(name=entry.name, event=event.name)
        raise InvalidInput(message, field_errors={f: [message] for f in held})
    for field_name, person in wanted.items():
        require_known_players(club=event.club, players=[person], field=field_name)
    new_ids = {p.id for p in wanted.values()} - {p.id for p in held.values()}
    clash = player_entered(event, new_ids, exclude=entry.id)
    if clash:
        newcomers = ", ".join(p.name for p in wanted.values() if p.id in new_ids)
        message = N_("%(players)s already plays in %(clash)s.", players=newcomers, clash=clash)
        fields = [f for f, p in wanted.items() if p.id in new_ids]
        raise InvalidInput(message, field_errors={f: [message] for f in fields})
    if entry.team_id is None:
        person = wanted["player"]
        _not_entered_before(event, entry, Q(player=person))
        if entry.name == held["player"].name:
            entry.name = person.name
        entry.player = person
        return
    one, two = wanted["player_one"], wanted["player_two"]
    if one.id == two.id:
        message = N_("A team needs two different players.")
        raise InvalidInput(message, field_errors={"player_two": [message]})
    old = Team.objects.select_related("player_one", "player_two").get(id=entry.team_id)
    team = team_for(club=event.club, player_one=one, player_two=two, name=name)
    _not_entered_before(event, entry, Q(team=team))
    if entry.name == f"{old.player_one} & {old.player_two}":  # the players' names, not a name
        entry.name = name or str(team)
    entry.team = team
    _games_made_again(event, entry, team)


def _not_entered_before(event: Event, entry: Entry, holds: Q) -> None:
    """A withdrawn entry of the event already holds these players: it is reinstated, not
    copied (an event enters a partnership, or a player, once)."""
    other = Entry.objects.filter(event=event).exclude(id=entry.id).filter(holds).first()
    if other is not None:
        raise InvalidInput(
            N_(
                "%(other)s, withdrawn, is already these players' entry in this event: "
                "reinstate it instead.",
                other=other.name,
            )
        )


def _games_made_again(event: Event, entry: Entry, team: Team) -> None:
    """The entry's pairings name its new partnership; its games drawn and not yet played (none
    has been, or the change was refused) are made again with the new players in the seats."""
    rows = list(
        Pairing.objects.select_for_update(of=("self",))
        .select_related("game", "home", "away", "home_team", "away_team")
        .filter(Q(home_id=entry.id) | Q(away_id=entry.id), cancelled=False)
    )
    drop_games([row.game for row in rows], why=N_("The players cannot change"))
    rules = event_rules(event)
    for row in rows:
        had_game = row.game is not None
        if row.home_id == entry.id:
            row.home_team = team
        if row.away_id == entry.id:
            row.away_team = team
        row.game = None
        if had_game:
            row.game = game_for(event=event, pairing=row, rules=rules)
        row.save(update_fields=["home_team", "away_team", "game"])


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
