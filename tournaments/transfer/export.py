"""An event as a JSON-ready dict: what was entered, never what can be derived.

Rows point at each other by *refs*: small numbers given in a stable order (players and teams
by name, the rest by id, which is the order the import creates them in), so an event exported,
imported and exported again gives the same document. Table codes are not exported: the
import issues fresh ones, so a file that leaks opens no table. Generation and report jobs,
the change history and rollbacks stay behind.

The players' own sign-ups travel with the event: its sign-up settings (``registration``,
``capacity``, ``registration_closes_at``, among the event's fields) and ``registrations``, each
with its status, place on the waiting list, the entry it became (by the entry's ref), language,
times, the refusal's reason (as English words) and its players (name, email, position, whether
they stopped the e-mails, and their player's ref when that player is one of the file's). What
stays behind, and why:

- the players' private links (``Registrant.secret``): a link is a credential, and a file is
  copied and mailed about; the import makes new links, so the old ones open nothing on the new
  server, and the next message each player is sent carries their new one;
- the address the sign-up came through (``base_url``): it is the old server's; the import puts
  the new server's own address (``REPORTS_BASE_URL``, as on its table cards) in its place;
- browser push subscriptions and the outbox (messages queued, sent or failed): they are bound
  to a browser on the old server and to deliveries already made; the import tells no one
  anything (see ``import_``), and the next change is told as usual, by e-mail.

Documents written before registrations were exported have none of these: the import reads them
as an event closed to sign-ups, with no registration.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone, translation

from kaiser_club.models import Club, Player
from kaiser_club.sentences import read_back
from scoring.models import Game, Hand, Team

from ..models import Entry, Event, Pairing, Registrant, Registration, Round, Substitution, Table

FORMAT_NAME = "kaiser-club-event"
FORMAT_VERSION = 1

EVENT_FIELDS = [
    "kind",
    "name",
    "date",
    "venue",
    "status",
    "preset",
    "rules",
    "format",
    "minutes_per_game",
    "rounds",
    "tiebreaks",
    "seeding",
    "forfeit_winner_score",
    "forfeit_loser_score",
    "check_in_required",
    "third_place",
    "grand_final_reset",
    "pool_count",
    "pool_advance",
    "knockout_size",
    "knockout_kind",
    "verification",
    "public_pages",
    "registration",
    "capacity",
    "registration_closes_at",
]
# The event's sign-up settings: absent from documents written before they were exported.
REGISTRATION_SETTINGS = ["registration", "capacity", "registration_closes_at"]
ENTRY_FIELDS = [
    "name",
    "seed",
    "rating",
    "pool",
    "status",
    "late",
    "registered_at",
    "checked_in_at",
    "withdrawn_at",
]
# What was decided at the table or by the organiser; scores and status are replayed.
GAME_FIELDS = [
    "first_dealer",
    "preset",
    "rules",
    "from_paper",
    "forfeited_by",
    "ended_at",
    "time_limit_minutes",
    "started_at",
    "paused_at",
    "paused_seconds",
    "added_minutes",
    "time_called_at",
]
HAND_FIELDS = [
    "number",
    "client_id",
    "status",
    "kind",
    "bidder",
    "bid",
    "contract",
    "trump",
    "forced",
    "bidding_team_tricks",
    "five_hearts",
    "three_spades",
    "bidder_tricks",
    "misdeal_reason",
    "completed_at",
    "entered_by_seat",
    "confirmed_by_seat",
    "confirmed_at",
]
PAIRING_FIELDS = [
    "pool",
    "first_dealer_home",
    "match_number",
    "code",
    "stage",
    "winner_to_side",
    "loser_to_side",
    "home_seeded",
    "away_seeded",
    "conditional",
    "cancelled",
    "advanced",
    "result",
    "winner_side",
    "home_points",
    "away_points",
    "reason",
    "points_set_by_organiser",
    "played_late",
]
SEATS = ["north", "east", "south", "west"]
REGISTRATION_FIELDS = ["name", "status", "waiting_order", "language", "created_at", "decided_at"]
REGISTRANT_FIELDS = ["position", "name", "email", "emails_stopped"]


def plain(value: Any) -> Any:
    """A field's value as JSON: times and dates as ISO text, UUIDs as text."""
    if isinstance(value, dt.datetime | dt.date):
        return value.isoformat()
    if value is not None and not isinstance(value, bool | int | float | str | list | dict):
        return str(value)
    return value


def _fields(row: Any, names: list[str]) -> dict[str, Any]:
    return {name: plain(getattr(row, name)) for name in names}


def _club(club: Club) -> dict[str, Any]:
    return {
        "slug": club.slug,
        "name": club.name,
        "town": club.town,
        "default_preset": club.default_preset,
    }


def _refs(ids: list[int]) -> dict[int, int]:
    return {pk: n for n, pk in enumerate(ids, start=1)}


def event_export(*, event: Event) -> dict[str, Any]:
    """The event as a JSON-ready dict (format version ``FORMAT_VERSION``)."""
    entries = list(Entry.objects.filter(event=event).select_related("club").order_by("id"))
    rounds = list(Round.objects.filter(event=event).order_by("number"))
    tables = list(Table.objects.filter(event=event).order_by("number"))
    pairings = list(
        Pairing.objects.filter(event=event)
        .select_related("round", "table")
        .order_by("round__number", "id")
    )
    subs = list(Substitution.objects.filter(entry__event=event).order_by("id"))
    game_ids = sorted({p.game_id for p in pairings if p.game_id} | {s.game_id for s in subs})
    games = list(Game.objects.filter(id__in=game_ids).order_by("id"))
    hands: dict[int, list[Hand]] = {}
    for hand in Hand.with_pending.filter(game_id__in=game_ids).order_by("game_id", "number"):
        hands.setdefault(hand.game_id, []).append(hand)

    team_ids = {e.team_id for e in entries if e.team_id}
    team_ids |= {t for p in pairings for t in (p.home_team_id, p.away_team_id) if t}
    team_ids |= {t for g in games for t in (g.ns_team_id, g.ew_team_id)}
    teams = list(
        Team.objects.filter(id__in=team_ids)
        .select_related("player_one", "player_two", "club")
        .order_by("player_one__name", "player_two__name", "name", "id")
    )
    player_ids = {e.player_id for e in entries if e.player_id}
    player_ids |= {p for t in teams for p in (t.player_one_id, t.player_two_id)}
    player_ids |= {getattr(g, f"{seat}_id") for g in games for seat in SEATS}
    player_ids |= {p for s in subs for p in (s.replaced_id, s.substitute_id)}
    players = list(Player.objects.filter(id__in=player_ids).order_by("name", "email", "id"))

    clubs = {event.club_id: event.club}
    for team in teams:
        if team.club_id and team.club is not None:
            clubs.setdefault(team.club_id, team.club)
    for entry in entries:
        if entry.club_id and entry.club is not None:
            clubs.setdefault(entry.club_id, entry.club)
    player_ref = _refs([p.id for p in players])
    team_ref = _refs([t.id for t in teams])
    entry_ref = _refs([e.id for e in entries])
    game_ref = _refs([g.id for g in games])
    pairing_ref = _refs([p.id for p in pairings])
    registrations = list(Registration.objects.filter(event=event).order_by("id"))
    registrants: dict[int, list[Registrant]] = {}
    for registrant in Registrant.objects.filter(registration__event=event).order_by(
        "registration_id", "position"
    ):
        registrants.setdefault(registrant.registration_id, []).append(registrant)

    def club_slug(club_id: int | None) -> str | None:
        return clubs[club_id].slug if club_id else None

    season = event.season
    return {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "exported_at": timezone.now().isoformat(),
        "clubs": [_club(c) for c in sorted(clubs.values(), key=lambda c: c.slug)],
        "event": {
            "club": event.club.slug,
            "season": None
            if season is None
            else {
                "name": season.name,
                "starts_on": plain(season.starts_on),
                "ends_on": plain(season.ends_on),
                "tiebreaks": season.tiebreaks,
            },
            **_fields(event, EVENT_FIELDS),
        },
        "players": [{"ref": player_ref[p.id], "name": p.name, "email": p.email} for p in players],
        "teams": [
            {
                "ref": team_ref[t.id],
                "name": t.name,
                "club": club_slug(t.club_id),
                "player_one": player_ref[t.player_one_id],
                "player_two": player_ref[t.player_two_id],
            }
            for t in teams
        ],
        "entries": [
            {
                "ref": entry_ref[e.id],
                "team": team_ref[e.team_id] if e.team_id else None,
                "player": player_ref[e.player_id] if e.player_id else None,
                "club": club_slug(e.club_id),
                **_fields(e, ENTRY_FIELDS),
            }
            for e in entries
        ],
        "rounds": [_fields(r, ["number", "label", "status", "started_at"]) for r in rounds],
        "tables": [{"number": t.number, "has_code": bool(t.code)} for t in tables],
        "games": [
            {
                "ref": game_ref[g.id],
                "ns_team": team_ref[g.ns_team_id],
                "ew_team": team_ref[g.ew_team_id],
                **{seat: player_ref[getattr(g, f"{seat}_id")] for seat in SEATS},
                **_fields(g, GAME_FIELDS),
                "hands": [_fields(h, HAND_FIELDS) for h in hands.get(g.id, [])],
            }
            for g in games
        ],
        "pairings": [
            {
                "ref": pairing_ref[p.id],
                "round": p.round.number,
                "table": p.table.number if p.table else None,
                "home": entry_ref.get(p.home_id) if p.home_id else None,
                "away": entry_ref.get(p.away_id) if p.away_id else None,
                "home_team": team_ref[p.home_team_id] if p.home_team_id else None,
                "away_team": team_ref[p.away_team_id] if p.away_team_id else None,
                "game": game_ref[p.game_id] if p.game_id else None,
                "winner_to": pairing_ref[p.winner_to_id] if p.winner_to_id else None,
                "loser_to": pairing_ref[p.loser_to_id] if p.loser_to_id else None,
                **_fields(p, PAIRING_FIELDS),
            }
            for p in pairings
        ],
        "substitutions": [
            {
                "game": game_ref[s.game_id],
                "entry": entry_ref[s.entry_id],
                "seat": s.seat,
                "replaced": player_ref[s.replaced_id],
                "substitute": player_ref[s.substitute_id],
                "reason": s.reason,
            }
            for s in subs
        ],
        "registrations": [
            {
                **_fields(r, REGISTRATION_FIELDS),
                "entry": entry_ref.get(r.entry_id) if r.entry_id else None,
                "refusal": _refusal(r),
                "registrants": [
                    {
                        **_fields(one, REGISTRANT_FIELDS),
                        "player": player_ref.get(one.player_id) if one.player_id else None,
                    }
                    for one in registrants.get(r.id, [])
                ],
            }
            for r in registrations
        ],
    }


def _refusal(registration: Registration) -> str:
    """Why the sign-up was refused, in English words ("" when no reason was kept): the kept
    sentence's template and parameters are the app's, never read from a file."""
    with translation.override("en"):
        return read_back(registration.refusal_said, "")
