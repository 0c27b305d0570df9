"""The people of an imported event: each player of the file is found here before a record is
made, so that moving an event between servers (a hall laptop, the club's server) keeps every
person's games under their one record.

Matching (``kaiser_club.people``), within what the importer may see (``import_._Scope``):

- by email among the records the clubs the importer organises know (members, former members,
  visitors, players of their partnerships; staff and the server's operator: every record);
- then by name among the records the event's club knows, and those of the file's other clubs
  that the importer organises (and records of no club yet); a record whose email differs from
  the file's is another person;
- one candidate is that person; more than one is the importer's choice (``choices``: the file's
  player ref -> a record's id, or NEW); no candidate, or NEW, makes a new record, a visitor of
  the event's club.

Every player of the file gets a ``PersonMatch`` line (who is matched to whom, who is new), which
the preview lists before anything is written. A player more than one record could be, with no
choice, refuses the import (``ChooseRecord``, with the candidates); the preview lists the
candidates instead, so the importer can choose.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from kaiser_club.errors import InvalidInput
from kaiser_club.models import Club, Player
from kaiser_club.people import (
    Ambiguity,
    Choice,
    ChooseRecord,
    Facts,
    Pool,
    ambiguity,
    parse_choice,
    players_known_to,
    players_of_no_club,
)
from kaiser_club.sentences import N_
from kaiser_club.text import clean_text


class ImportScope(Protocol):
    organised: frozenset[int] | None
    choices: Mapping[int, Choice]
    people: list[PersonMatch]
    preview: bool

    @property
    def everywhere(self) -> bool: ...

    def organises(self, club: Club) -> bool: ...


@dataclass(frozen=True)
class PersonMatch:
    """One player of the file, and the record here they are (or a new one)."""

    ref: Any  # the file's player ref
    name: str  # as the file gives it
    email: str
    how: str  # "email", "name", "chosen", "new", "choose" (the importer must choose)
    player: Player | None = None  # the record here (None: a new record)
    candidates: list[Facts] = field(default_factory=list)  # when "choose"

    @property
    def row(self) -> str:
        return _("Player %(ref)s (%(name)s)") % {"ref": self.ref, "name": self.name}

    def __str__(self) -> str:
        if self.how == "choose":
            listed = "; ".join(f"{c.player.name} ({c.summary()})" for c in self.candidates)
            return _("%(row)s: could be any of these records: %(list)s. Choose one, or new.") % {
                "row": self.row,
                "list": listed,
            }
        if self.player is None:
            return (
                _("%(row)s: a new record (chosen).")
                if self.how == "chosen"
                else _("%(row)s: no record here could be this person; a new record.")
            ) % {"row": self.row}
        said = {
            "email": _("%(row)s: the record %(name)s (#%(id)s), found by email."),
            "name": _("%(row)s: the record %(name)s (#%(id)s), found by name."),
            "chosen": _("%(row)s: the record %(name)s (#%(id)s), as chosen."),
        }[self.how]
        return said % {"row": self.row, "name": self.player.name, "id": self.player.id}

    def as_dict(self) -> dict[str, Any]:
        answer: dict[str, Any] = {
            "ref": self.ref,
            "name": self.name,
            "email": self.email,
            "how": self.how,
            "record": self.player.id if self.player is not None else None,
            "record_name": self.player.name if self.player is not None else None,
        }
        if self.how == "choose":
            answer["choices"] = [c.as_dict(emails=False) for c in self.candidates]
        return answer


def _pools(data: Any, scope: ImportScope, host: Club) -> Pool:
    """Names among the records the event's club (and the file's other clubs the importer
    organises) know, and records of no club; emails among the organised clubs' records."""
    slugs = [
        str(raw.get("slug"))
        for raw in (data.get("clubs") or [] if isinstance(data, Mapping) else [])
        if isinstance(raw, Mapping)
    ]
    named = [c.id for c in Club.objects.filter(slug__in=slugs) if scope.organises(c)]
    names = Player.objects.filter(
        Q(id__in=players_known_to(club_ids=sorted({host.id, *named})).values("id"))
        | Q(id__in=players_of_no_club().values("id"))
    )
    emails: QuerySet[Player] = (
        Player.objects.all()
        if scope.everywhere
        else players_known_to(club_ids=sorted(scope.organised or ()))
    )
    return Pool(names, emails)


def match_players(
    raws: list[Any], scope: ImportScope, host: Club, data: Any, need: Any
) -> dict[Any, Player]:
    """The file's players (``raws``, checked with ``need``) as records here: found, or new
    visitors of ``host``. Lists each in ``scope.people``; raises ChooseRecord (not in a
    preview) for a player more than one record could be and no choice says which."""
    pool = _pools(data, scope, host)
    players: dict[Any, Player] = {}
    unsure: list[Ambiguity] = []
    for raw in raws:
        where = N_(
            "Player %(ref)s",
            ref=repr(raw.get("ref") if isinstance(raw, Mapping) else raw),
        )
        ref = need(raw, "ref", where)
        name, email = clean_text(str(need(raw, "name", where))), str(raw.get("email") or "")
        choice = scope.choices.get(ref) if isinstance(ref, int) else None
        try:
            found = pool.match(name=name, email=email, choice=choice)
        except InvalidInput as exc:
            raise InvalidInput(
                N_("%(where)s (%(name)s): %(message)s", where=where, name=name, message=exc.message)
            ) from None
        if found.ambiguous:
            lines = ambiguity(f"player {ref}", name, found.candidates, club=host)
            unsure.append(lines)
            scope.people.append(
                PersonMatch(ref, name, email, "choose", candidates=lines.candidates)
            )
        else:
            how = "chosen" if choice is not None else found.how
            how = "new" if how == "none" else how
            scope.people.append(PersonMatch(ref, name, email, how, found.player))
        players[ref] = found.player or Player.objects.create(name=name, email=email, host_club=host)
    if unsure and not scope.preview:
        raise ChooseRecord(unsure)
    return players


def parse_people(items: list[str] | str) -> dict[int, Choice]:
    """Choices as a door gives them: "3:12,4:new" (or a list of "3=12"): the file's player
    ref, and a record's id or new."""
    if isinstance(items, str):
        items = [part for part in items.split(",") if part.strip()]
    choices: dict[int, Choice] = {}
    for item in items:
        ref, sep, value = item.replace("=", ":").partition(":")
        ref = ref.strip()
        if not sep or not (ref.isascii() and ref.isdigit()) or len(ref) > 9:
            raise InvalidInput(
                _(
                    "'%(item)s' is not a choice: write the file's player ref, a colon, and a "
                    "record's id or new (3:12, 4:new)."
                )
                % {"item": item[:40]}
            )
        choice = parse_choice(value)
        if choice is not None:
            choices[int(ref)] = choice
    return choices


def summary(people: list[PersonMatch]) -> str:
    found = sum(1 for p in people if p.player is not None)
    new = sum(1 for p in people if p.player is None and p.how != "choose")
    return _("Players: %(found)d found here, %(new)d new records.") % {"found": found, "new": new}
