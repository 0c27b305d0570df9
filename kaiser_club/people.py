"""One person, one record: which records a club knows, how a typed person is found among them
before a record is made, and what tells two records apart.

**Known to a club**: its members, its former members (``FormerMembership``), the visitors it
typed in (``Player.host_club``), and whoever played in one of its partnerships. kaiser_club
knows no other app: the apps that hold games register a ``PeopleSource`` (scoring does, in its
``ready``) that adds its own links (partnerships), facts (games, last game) and who met whom.

**Finding a person** (``match_person``), at every door a person comes in by (add member, the
members CSV, an entry typed in, a late entry, a substitute, an event import): by email first,
then by name among the records the door may look at (``within``). A record whose email differs
from the one given is another person. Names match once folded (case, accents, punctuation,
spaces): "stan  melnyk" is "Stan Melnyk" and "Stán Melnyk". One candidate is that person; more
than one is the person's choice (``ChooseRecord`` lists them, with what tells them apart), and a
new record is made only when no one could match or when the person says so (``NEW``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from datetime import date
from typing import Any, Literal, Protocol

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from .errors import Conflict, InvalidInput
from .models import Club, FormerMembership, Membership, Player
from .text import clean_text

NEW: Literal["new"] = "new"
Choice = int | Literal["new"]
MAX_CANDIDATES = 12  # shown in a choice; more same-named records than this are not listed


class PeopleSource(Protocol):
    """What an app that seats players adds to kaiser_club's idea of who is who."""

    def known(self, club_ids: Sequence[int] | None) -> Q:
        """Players the app ties to these clubs (None: to any club), as a filter on Player."""
        ...

    def games(self, player_ids: Sequence[int]) -> dict[int, tuple[int, date | None]]:
        """Each player's number of games and the date of the last one."""
        ...

    def partners(self, player_ids: Sequence[int]) -> dict[int, set[int]]:
        """Each player's partners."""
        ...

    def met(self, player_ids: Sequence[int]) -> set[frozenset[int]]:
        """Pairs of these players who were two people at once (one game, one partnership)."""
        ...


_sources: list[PeopleSource] = []


def register(source: PeopleSource) -> None:
    if source not in _sources:
        _sources.append(source)


# --- Who a club knows --------------------------------------------------------------------------


def known_q(club_ids: Sequence[int] | None) -> Q:
    """A filter on Player: the records these clubs know (None: records any club knows)."""
    if club_ids is None:
        found = (
            Q(memberships__isnull=False)
            | Q(former_memberships__isnull=False)
            | Q(host_club__isnull=False)
        )
    else:
        ids = list(club_ids)
        found = (
            Q(memberships__club_id__in=ids)
            | Q(former_memberships__club_id__in=ids)
            | Q(host_club_id__in=ids)
        )
    for source in _sources:
        found |= source.known(club_ids)
    return found


def players_known_to(*, club_ids: Sequence[int] | None) -> QuerySet[Player]:
    """The records the clubs know, each once (None: every record some club knows)."""
    return Player.objects.filter(id__in=Player.objects.filter(known_q(club_ids)).values("id"))


def players_of_no_club() -> QuerySet[Player]:
    """Records no club knows yet: the first club that names one adopts it as a visitor."""
    return Player.objects.exclude(id__in=Player.objects.filter(known_q(None)).values("id"))


def club_past(*, club: Club) -> QuerySet[Player]:
    """The club's records that are not its members now: former members, its visitors, and
    whoever played in its partnerships."""
    return (
        players_known_to(club_ids=[club.id]).exclude(memberships__club=club).order_by("name", "id")
    )


# --- Names ------------------------------------------------------------------------------------


def name_key(name: str) -> str:
    """A name folded for comparison: case, accents, punctuation and spacing ignored."""
    text = unicodedata.normalize("NFKD", clean_text(name).casefold())
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = "".join(c if c.isalnum() else " " for c in text)
    return " ".join(text.split())


def _distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance, or ``limit + 1`` as soon as it is sure to exceed ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        if min(current) > limit:
            return limit + 1
        previous = current
    return previous[-1]


def names_close(a: str, b: str) -> bool:
    """Two folded names that could be one person's: the same, a letter apart (two for names of
    ten letters or more; none under five), or the same surname with the same first initial
    ("R. Bear", "Ron Bear")."""
    if a == b:
        return True
    shorter = min(len(a), len(b))
    allowed = 2 if shorter >= 10 else 1 if shorter >= 5 else 0
    if allowed and _distance(a, b, allowed) <= allowed:
        return True
    ta, tb = a.split(), b.split()
    return len(ta) > 1 and len(tb) > 1 and ta[-1] == tb[-1] and ta[0][:1] == tb[0][:1]


# --- What tells two records apart -------------------------------------------------------------


@dataclass(frozen=True)
class Facts:
    """What tells a record apart from another of the same name."""

    player: Player
    games: int = 0
    last_game: date | None = None
    clubs: tuple[str, ...] = ()  # member of
    former_clubs: tuple[str, ...] = ()  # a former member of
    visitor_of: str = ""  # typed in as a visitor by
    member_here: bool = False  # a member of the club asking

    @property
    def has_account(self) -> bool:
        return self.player.user_id is not None

    def as_dict(self, *, emails: bool) -> dict[str, Any]:
        answer: dict[str, Any] = {
            "id": self.player.id,
            "name": self.player.name,
            "games": self.games,
            "last_game": self.last_game.isoformat() if self.last_game else None,
            "clubs": list(self.clubs),
            "former_clubs": list(self.former_clubs),
            "visitor_of": self.visitor_of or None,
            "has_account": self.has_account,
            "member_here": self.member_here,
        }
        if emails:
            answer["email"] = self.player.email
        return answer

    @property
    def summary_with_email(self) -> str:
        return self.summary(emails=True)

    def summary(self, *, emails: bool = False) -> str:
        """One line: "#12, member of Regina, 14 games, the last on 2026-10-01, no email"."""
        parts = [f"#{self.player.id}"]
        if self.clubs:
            parts.append(_("member of %(clubs)s") % {"clubs": ", ".join(self.clubs)})
        if self.former_clubs:
            parts.append(_("former member of %(clubs)s") % {"clubs": ", ".join(self.former_clubs)})
        if self.visitor_of:
            parts.append(_("visitor of %(club)s") % {"club": self.visitor_of})
        if self.games and self.last_game:
            parts.append(
                ngettext(
                    "%(n)d game, the last on %(day)s",
                    "%(n)d games, the last on %(day)s",
                    self.games,
                )
                % {"n": self.games, "day": self.last_game.isoformat()}
            )
        else:
            parts.append(_("no games"))
        if emails:
            parts.append(self.player.email or _("no email"))
        if self.has_account:
            parts.append(_("signs in"))
        return ", ".join(parts)


def facts_of(players: Iterable[Player], *, club: Club | None = None) -> dict[int, Facts]:
    """Facts of each record, in a fixed number of queries (three, and each source's own)."""
    found = {p.id: p for p in players}
    if not found:
        return {}
    ids = list(found)
    clubs: dict[int, list[str]] = {}
    here: set[int] = set()
    for player_id, club_id, name in Membership.objects.filter(player_id__in=ids).values_list(
        "player_id", "club_id", "club__name"
    ):
        clubs.setdefault(player_id, []).append(name)
        if club is not None and club_id == club.id:
            here.add(player_id)
    former: dict[int, list[str]] = {}
    for player_id, name in FormerMembership.objects.filter(player_id__in=ids).values_list(
        "player_id", "club__name"
    ):
        former.setdefault(player_id, []).append(name)
    host_ids = {p.host_club_id for p in found.values() if p.host_club_id}
    hosts = dict(Club.objects.filter(id__in=host_ids).values_list("id", "name")) if host_ids else {}
    games: dict[int, tuple[int, date | None]] = {}
    for source in _sources:
        for player_id, (count, last) in source.games(ids).items():
            before, before_last = games.get(player_id, (0, None))
            games[player_id] = (
                before + count,
                max(filter(None, [before_last, last]), default=None),
            )
    return {
        pid: Facts(
            player=p,
            games=games.get(pid, (0, None))[0],
            last_game=games.get(pid, (0, None))[1],
            clubs=tuple(sorted(clubs.get(pid, []))),
            former_clubs=tuple(sorted(former.get(pid, []))),
            visitor_of=hosts.get(p.host_club_id or 0, ""),
            member_here=pid in here,
        )
        for pid, p in found.items()
    }


def partners_of(player_ids: Sequence[int]) -> dict[int, set[int]]:
    partners: dict[int, set[int]] = {}
    for source in _sources:
        for player_id, found in source.partners(player_ids).items():
            partners.setdefault(player_id, set()).update(found)
    return partners


def pairs_that_met(player_ids: Sequence[int]) -> set[frozenset[int]]:
    met: set[frozenset[int]] = set()
    for source in _sources:
        met |= source.met(player_ids)
    return met


# --- Finding a person -------------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    """Who a typed person is: a record, or a new one (``player`` None), and how that was found."""

    player: Player | None
    how: Literal["chosen", "email", "name", "new", "none", "ambiguous"]
    candidates: tuple[Player, ...] = ()

    @property
    def ambiguous(self) -> bool:
        return self.how == "ambiguous"


def parse_choice(value: Any) -> Choice | None:
    """A choice as a form or a body gives it: a record's id, "new", or nothing."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise InvalidInput(_("Choose a player's id, or new for a new record."))
    if isinstance(value, int):
        return value
    text = str(value).strip().lstrip("#")
    if text.lower() == NEW:
        return NEW
    if text.isascii() and text.isdigit() and len(text) <= 18:
        return int(text)
    raise InvalidInput(
        _("'%(value)s' is neither a player's id nor new.") % {"value": str(value)[:40]}
    )


def _not_choosable(player_id: int) -> InvalidInput:
    return InvalidInput(
        _("Player %(id)s is not one of the records you may choose here.") % {"id": player_id},
        code="other_club",
    )


class Pool:
    """Records a door looks for a person among, read once: by name among ``within``, by email
    among ``emails_within`` (by default the same records; another set is asked per email)."""

    FIELDS = ("id", "name", "email", "user_id", "host_club_id")

    def __init__(
        self, within: QuerySet[Player], emails_within: QuerySet[Player] | None = None
    ) -> None:
        self.within = within
        self.emails_within = emails_within
        self._rows: list[Player] | None = None
        self._by_key: dict[str, list[Player]] = {}
        self._by_email: dict[str, list[Player]] = {}

    @property
    def rows(self) -> list[Player]:
        if self._rows is None:
            self._rows = list(self.within.only(*self.FIELDS).order_by("id"))
            for p in self._rows:
                self._by_key.setdefault(name_key(p.name), []).append(p)
                if p.email:
                    self._by_email.setdefault(p.email.lower(), []).append(p)
        return self._rows

    def by_id(self, player_id: int) -> Player | None:
        found = next((p for p in self.rows if p.id == player_id), None)
        if found is None and self.emails_within is not None:
            found = self.emails_within.filter(id=player_id).first()
        return found

    def with_email(self, email: str) -> list[Player]:
        if self.emails_within is None:
            self.rows  # noqa: B018 (reads the records once)
            return self._by_email.get(email.lower(), [])
        query = self.emails_within.filter(email__iexact=email).order_by("id")
        return list(query.only(*self.FIELDS)[:MAX_CANDIDATES])

    def named(self, key: str) -> list[Player]:
        self.rows  # noqa: B018
        return self._by_key.get(key, [])

    def match(self, *, name: str, email: str = "", choice: Choice | None = None) -> Match:
        """The record a typed person is. Reads only."""
        if choice == NEW:
            return Match(None, "new")
        if isinstance(choice, int):
            chosen = self.by_id(choice)
            if chosen is None:
                raise _not_choosable(choice)
            return Match(chosen, "chosen")
        email = email.strip()
        if email:
            same_email = self.with_email(email)
            if len(same_email) == 1:
                return Match(same_email[0], "email")
            if same_email:
                return Match(None, "ambiguous", tuple(same_email[:MAX_CANDIDATES]))
        key = name_key(name)
        if not key:
            return Match(None, "none")
        same_name = [
            p
            for p in self.named(key)
            if not email or not p.email or p.email.lower() == email.lower()
        ]
        if len(same_name) == 1:
            return Match(same_name[0], "name")
        if same_name:
            return Match(None, "ambiguous", tuple(same_name[:MAX_CANDIDATES]))
        return Match(None, "none")


def match_person(
    *,
    within: QuerySet[Player],
    name: str,
    email: str = "",
    choice: Choice | None = None,
    emails_within: QuerySet[Player] | None = None,
) -> Match:
    """The record a typed person is, among ``within`` (emails among ``emails_within``, by
    default the same records). Reads only; for many people at once, keep one ``Pool``."""
    return Pool(within, emails_within).match(name=name, email=email, choice=choice)


@dataclass(frozen=True)
class Ambiguity:
    """A typed person more than one record could be."""

    field: str  # the form's field, the body's key, the file's row
    typed: str  # the name (or email) as typed
    candidates: list[Facts] = dataclass_field(default_factory=list)


class ChooseRecord(Conflict):
    """More than one record could be the person typed in: the person acting chooses one, or a
    new record. HTTP 409; ``choices`` lists each field's candidates with what tells them apart."""

    code = "choose_player"

    def __init__(self, ambiguities: list[Ambiguity], *, emails: bool = False) -> None:
        self.ambiguities = ambiguities
        sentences = [
            ngettext(
                "%(name)s could be this player's record: %(list)s. Choose it, or a new record.",
                "%(name)s could be any of %(n)d players: %(list)s. Choose one, or a new record.",
                len(a.candidates),
            )
            % {
                "name": a.typed,
                "n": len(a.candidates),
                "list": "; ".join(
                    f"{c.player.name} ({c.summary(emails=emails)})" for c in a.candidates
                ),
            }
            for a in ambiguities
        ]
        message = " ".join(sentences)
        super().__init__(
            message,
            field_errors={
                a.field: [sentence] for a, sentence in zip(ambiguities, sentences, strict=True)
            },
            extra={
                "choices": {
                    a.field: [c.as_dict(emails=emails) for c in a.candidates] for a in ambiguities
                }
            },
        )


def ambiguity(
    field_name: str, typed: str, candidates: Sequence[Player], *, club: Club | None = None
) -> Ambiguity:
    facts = facts_of(candidates, club=club)
    return Ambiguity(field_name, typed, [facts[p.id] for p in candidates])
