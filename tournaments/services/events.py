"""Seasons and events: create them, change their settings and rule set while that is allowed.

Each action takes the actor and refuses anyone but an organiser of the club before it writes
anything. The steps named ``…_unchecked`` apply the rules and ask nothing of who acts: for
callers that have decided that themselves (the demo, an event's transfer)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from kaiser_club.actors import Actor
from kaiser_club.errors import InvalidInput, NotAllowed
from kaiser_club.models import Club
from kaiser_club.sentences import N_
from kaiser_club.sentences import of as said_by
from kaiser_club.text import clean_within
from scoring import services as scoring
from scoring.models import Game
from scoring.rules import RuleSet, RuleSetInvalid

from .. import limits
from ..choices import EventKind, EventStatus, Format, KnockoutKind, Seeding, Tiebreak
from ..models import Event, Pairing, Round, Season
from .games import event_rules, game_for, game_touched
from .locks import lock_event
from .organisers import require_club_organiser, require_organiser
from .results import refresh_status

# Settings that decide how teams are paired: fixed once the first round exists.
PAIRING_SETTINGS = {
    "format",
    "seeding",
    "third_place",
    "grand_final_reset",
    "pool_count",
    "pool_advance",
    "knockout_size",
    "knockout_kind",
    "check_in_required",
}
EDITABLE = {
    "name",
    "date",
    "venue",
    "season",
    "minutes_per_game",
    "rounds",
    "tiebreaks",
    "forfeit_winner_score",
    "forfeit_loser_score",
    "verification",
    "public_pages",
    "registration",
    "capacity",
    "registration_closes_at",
    *PAIRING_SETTINGS,
}


def check_tiebreaks(tiebreaks: Sequence[str]) -> list[str]:
    known = set(Tiebreak.values)
    unknown = [t for t in tiebreaks if t not in known]
    if unknown or not tiebreaks or len(set(tiebreaks)) != len(tiebreaks):
        choices = ", ".join(Tiebreak.values)
        raise InvalidInput(
            N_(
                "The tie-break order takes each of these at most once: %(choices)s.",
                choices=choices,
            ),
            field_errors={
                "tiebreaks": [
                    N_("Unknown or repeated: %(unknown)s.", unknown=", ".join(unknown) or "—")
                ]
            },
        )
    return list(tiebreaks)


@transaction.atomic
def season_create(
    *,
    actor: Actor,
    club: Club,
    name: str,
    starts_on: dt.date | None = None,
    ends_on: dt.date | None = None,
    tiebreaks: Sequence[str] | None = None,
) -> Season:
    refusal = NotAllowed(N_("Only organisers of %(club)s can add its seasons.", club=club.name))
    require_club_organiser(actor, club, refusal)
    return season_create_unchecked(
        club=club, name=name, starts_on=starts_on, ends_on=ends_on, tiebreaks=tiebreaks
    )


@transaction.atomic
def season_create_unchecked(
    *,
    club: Club,
    name: str,
    starts_on: dt.date | None = None,
    ends_on: dt.date | None = None,
    tiebreaks: Sequence[str] | None = None,
) -> Season:
    name = clean_within(
        name,
        120,
        too_long=N_("A season's name has at most %(limit)s characters; this one has %(length)s."),
    )
    if not name:
        raise InvalidInput(N_("A season needs a name."), field_errors={"name": [N_("Required.")]})
    if starts_on and ends_on and ends_on < starts_on:
        raise InvalidInput(N_("A season cannot end before it starts."))
    if Season.objects.filter(club=club, name=name.strip()).exists():
        raise InvalidInput(
            N_(
                "%(club)s already has a season called %(name)s.",
                club=club.name,
                name=name.strip(),
            )
        )
    return Season.objects.create(
        club=club,
        name=name.strip(),
        starts_on=starts_on,
        ends_on=ends_on,
        tiebreaks=check_tiebreaks(tiebreaks or ["wins", "point_difference"]),
    )


def _check(event: Event) -> None:
    fmt = Format(event.format)
    if event.season is not None and event.season.club_id != event.club_id:
        raise InvalidInput(
            N_("Season %(name)s belongs to another club.", name=event.season.name),
            field_errors={"season": [N_("Not a season of this club.")]},
        )
    if fmt == Format.POOLS and not (event.pool_count and event.pool_advance):
        raise InvalidInput(
            N_("A pools event needs the number of pools and how many of each go on."),
            field_errors={"pool_count": [N_("Required for pools.")]},
        )
    _check_knockout(event, fmt)
    if fmt == Format.SWISS_KNOCKOUT and not event.rounds:
        raise InvalidInput(
            N_("Say how many Swiss rounds are played before the knockout."),
            field_errors={"rounds": [N_("Required for this format.")]},
        )
    if fmt in (Format.SWISS, Format.PROGRESSIVE) and not event.rounds:
        raise InvalidInput(
            N_("Say how many rounds this %(label)s event plays.", label=fmt.label),
            field_errors={"rounds": [N_("Required for this format.")]},
        )
    if event.rounds is not None and not 1 <= event.rounds <= 50:
        raise InvalidInput(N_("An event plays between 1 and 50 rounds."))
    if event.forfeit_winner_score <= event.forfeit_loser_score:
        raise InvalidInput(N_("A forfeit's winning score must be above its losing score."))
    if event.minutes_per_game is not None and not 1 <= event.minutes_per_game <= 600:
        raise InvalidInput(N_("Minutes per game must be between 1 and 600."))
    check_tiebreaks(event.tiebreaks)
    if event.seeding not in Seeding.values:
        raise InvalidInput(
            N_(
                "Seeding is one of: %(choices)s.",
                choices=", ".join(Seeding.values),
            )
        )


def _check_knockout(event: Event, fmt: Format) -> None:
    """A Swiss or round robin then a knockout says how many teams go on, and which knockout
    they play: any size from two (one that is not a power of two gives the top seeds byes) up to
    the event's places; whether that many teams play is checked when the first round is drawn,
    since teams are entered until then."""
    if event.knockout_kind not in KnockoutKind.values:
        raise InvalidInput(
            N_(
                "The knockout is one of: %(choices)s.",
                choices=", ".join(KnockoutKind.values),
            ),
            field_errors={"knockout_kind": [N_("Not a knockout this app knows.")]},
        )
    if fmt not in (Format.SWISS_KNOCKOUT, Format.ROUND_ROBIN_KNOCKOUT):
        return
    low, high = limits.KNOCKOUT_SIZE
    if event.knockout_size is None:
        raise InvalidInput(
            N_("Say how many teams go on from the first stage to the knockout."),
            field_errors={"knockout_size": [N_("Required for this format.")]},
        )
    if not low <= event.knockout_size <= high:
        raise InvalidInput(
            N_(
                "Between %(low)s and %(high)s teams go on to the knockout.",
                low=low,
                high=high,
            ),
            field_errors={"knockout_size": [N_("Out of range.")]},
        )
    if event.capacity is not None and event.knockout_size > event.capacity:
        raise InvalidInput(
            N_(
                "The knockout takes %(size)s teams, more than the event's %(places)s places.",
                size=event.knockout_size,
                places=event.capacity,
            ),
            field_errors={"knockout_size": [N_("More than the event's places.")]},
        )


@transaction.atomic
def event_create(
    *,
    club: Club,
    name: str,
    date: dt.date,
    kind: str = EventKind.TOURNAMENT,
    format: str = Format.SWISS,
    preset_name: str | None = None,
    rule_changes: Mapping[str, Any] | None = None,
    by: User | None = None,
    **settings: Any,
) -> Event:
    """An event whose rule set is copied from a preset: ``tournament`` for a tournament, the
    club's own default for a club night, unless another is named."""
    unknown = set(settings) - EDITABLE
    if unknown:
        raise InvalidInput(
            N_(
                "Unknown event settings: %(unknown)s.",
                unknown=", ".join(sorted(unknown)),
            )
        )
    if kind not in EventKind.values:
        raise InvalidInput(
            N_(
                "An event is one of: %(choices)s.",
                choices=", ".join(EventKind.values),
            )
        )
    if format not in Format.values:
        raise InvalidInput(
            N_(
                "Format is one of: %(choices)s.",
                choices=", ".join(Format.values),
            )
        )
    settings = _cleaned(name=name, **settings)
    name = settings.pop("name")
    preset_name = preset_name or (
        "tournament" if kind == EventKind.TOURNAMENT else club.default_preset
    )
    rules = scoring.rules_from(preset_name=preset_name, changes=rule_changes)
    settings.setdefault("check_in_required", kind == EventKind.TOURNAMENT)
    if settings.get("tiebreaks") is None:
        settings.pop("tiebreaks", None)
    event = Event(
        club=club,
        name=name.strip(),
        date=date,
        kind=kind,
        format=format,
        preset=preset_name,
        rules=rules.to_dict(),
        created_by=by if getattr(by, "is_authenticated", False) else None,
        **settings,
    )
    _check(event)
    event.save()
    return event


def _cleaned(**settings: Any) -> dict[str, Any]:
    """The settings with the event's name and venue as the app stores typed text (one line, no
    control or bidi formatting characters); a name with nothing left is refused."""
    too_long = {
        "name": (
            N_("An event's name has at most %(limit)s characters; this one has %(length)s."),
            160,
        ),
        "venue": (N_("A venue has at most %(limit)s characters; this one has %(length)s."), 200),
    }
    for field, (said, limit) in too_long.items():
        if field in settings:
            settings[field] = clean_within(settings[field] or "", limit, too_long=said, field=field)
    if "name" in settings and not settings["name"]:
        raise InvalidInput(N_("An event needs a name."), field_errors={"name": [N_("Required.")]})
    return settings


def games_started(event: Event) -> bool:
    """Whether any game of the event has started (a clock, a hand, a result)."""
    games = Game.objects.filter(pairing__event=event)
    return any(game_touched(g) for g in games.only("hand_count", "started_at", "status"))


@transaction.atomic
def event_update(*, actor: Actor, event: Event, **changes: Any) -> Event:
    """Changes settings. The ones that decide the pairing are fixed once a round exists, the
    rest (minutes per game included) once a game has started."""
    require_organiser(actor, event)
    return event_update_unchecked(event=event, **changes)


@transaction.atomic
def event_update_unchecked(*, event: Event, **changes: Any) -> Event:
    event = lock_event(event.id)
    unknown = set(changes) - EDITABLE
    if unknown:
        raise InvalidInput(
            N_(
                "These settings cannot be changed: %(unknown)s.",
                unknown=", ".join(sorted(unknown)),
            )
        )
    changes = _cleaned(**changes)
    changed = {k for k, v in changes.items() if getattr(event, k) != v}
    if changed & PAIRING_SETTINGS and Round.objects.filter(event=event).exists():
        fixed = ", ".join(sorted(changed & PAIRING_SETTINGS)).replace("_", " ")
        raise InvalidInput(
            N_(
                "The first round exists, so these can no longer change: %(fixed)s. They decide how "
                "teams are paired.",
                fixed=fixed,
            )
        )
    if "minutes_per_game" in changed and games_started(event):
        raise InvalidInput(N_("A game has started: minutes per game can no longer change."))
    for key, value in changes.items():
        setattr(event, key, value)
    _check(event)
    event.save()
    if "minutes_per_game" in changed:
        _renew_games(event)
    if "rounds" in changed and event.status != EventStatus.DRAFT:
        refresh_status(event=event, round_ids=[])  # its last round may be played already
    return event


@transaction.atomic
def event_change_rules(*, actor: Actor, event: Event, changes: Mapping[str, Any]) -> Event:
    """Changes options of the event's rule set; allowed until the first game starts. Games
    already generated (none started) are made again with the new rules."""
    require_organiser(actor, event)
    return event_change_rules_unchecked(event=event, changes=changes)


@transaction.atomic
def event_change_rules_unchecked(*, event: Event, changes: Mapping[str, Any]) -> Event:
    event = lock_event(event.id)
    if games_started(event):
        raise InvalidInput(
            N_("A game of this event has started, so its rule set can no longer change.")
        )
    try:
        rules = RuleSet.from_dict({**event.rules, **changes})
    except RuleSetInvalid as exc:
        raise InvalidInput(said_by(exc), field_errors={"rules": list(exc.refusals)}) from None
    event.rules = rules.to_dict()
    event.save(update_fields=["rules", "updated_at"])
    _renew_games(event)
    return event


def _renew_games(event: Event) -> None:
    """Replaces the event's games (none started) so they copy the current rule set."""
    rows = list(
        Pairing.objects.filter(event=event, game__isnull=False).select_related(
            "home_team", "away_team", "game"
        )
    )
    if not rows:
        return
    old = [row.game_id for row in rows if row.game_id is not None]
    rules = event_rules(event)
    for row in rows:
        row.game = game_for(event=event, pairing=row, rules=rules)
    Pairing.objects.bulk_update(rows, ["game"])
    Game.objects.filter(id__in=old).delete()
