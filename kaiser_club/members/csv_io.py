"""Members to and from CSV. Import is two steps: a preview that checks every row and says what
each would do, then the import itself, which checks again and writes all rows or none.

The file: a header row naming the columns, then one member a row. ``name`` is required;
``id``, ``email`` and ``role`` may be left out (role: player). Other columns are ignored, so a
file exported here imports as it is. Rows are numbered as a spreadsheet shows them: the header
is row 1, the first member row 2.

Which record a row is (``kaiser_club.people``): the record whose ``id`` it gives (the export
gives every member's, so two members of one name round-trip), or ``new`` there for a new
record; without an id, the record with its email, then the one record of its name (whose email,
if any, is the row's) among the club's members and its past (former members, visitors) and the
records of the importer's other clubs. A row of a member updates that member's name, email and
role; a row of a former member or a visitor makes that same record a member again; a row that
more than one record could be is refused with the candidates' ids, to be written in the id
column. Only a row that matches no record, or says ``new``, makes a new record.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.translation import gettext as _

from kaiser_club.sentences import N_, Np_, Said, grouped, render

from ..actors import Actor
from ..errors import InvalidInput
from ..models import Club, FormerMembership, Membership, Player
from ..people import Facts, Pool, facts_of, parse_choice
from ..roles import Role
from ..spreadsheet import check_csv_size, csv_text, from_cell
from .services import NAME_MAX, lock_club, record_pools

MAX_BYTES = 1_000_000
MAX_ROWS = 5000
COLUMNS = ("id", "name", "email", "role")
ROLE_WORDS = {
    **{r.value: r for r in Role},
    **{str(r.label).lower(): r for r in Role},
    "admin": Role.CLUB_ADMIN,
    "club admin": Role.CLUB_ADMIN,
    "club-admin": Role.CLUB_ADMIN,
    "organizer": Role.ORGANISER,
}


class Action(StrEnum):
    NEW = "new"
    UPDATE = "update"
    UNCHANGED = "unchanged"
    AGAIN = "again"  # a former member or a visitor: the same record becomes a member


@dataclass(frozen=True)
class MemberImportRow:
    number: int
    name: str
    email: str
    role: Role
    action: Action
    membership: Membership | None = None
    player: Player | None = None  # the record the row is (None: a new record)
    facts: Facts | None = None  # what tells that record apart, for the preview

    @property
    def changes(self) -> list[str]:
        if self.player is None:
            return []
        found = []
        if self.player.name != self.name:
            found.append(f"name {self.player.name} → {self.name}")
        if self.email and self.player.email.lower() != self.email.lower():
            found.append(f"email {self.player.email or '—'} → {self.email}")
        if self.membership is not None and self.membership.role != self.role:
            found.append(f"role {Role(self.membership.role).label} → {self.role.label}")
        return found


@dataclass
class Preview:
    rows: list[MemberImportRow] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # in the reader's language

    @property
    def ok(self) -> bool:
        return not self.errors and bool(self.rows)

    def count(self, action: Action) -> int:
        return sum(1 for row in self.rows if row.action is action)


def check_size(text: str) -> None:
    """Refuses a file bigger than one import takes, before the preview or the import (and its
    transaction) reads it: the page calls this first."""
    check_csv_size(
        text,
        max_bytes=MAX_BYTES,
        max_rows=MAX_ROWS,
        too_many_rows=N_(
            "The file has %(rows)s members; at most %(max_rows)s can be imported at once: split it."
        ),
    )


def decode(data: bytes) -> str:
    """Text from an uploaded file: UTF-8 (with or without the mark spreadsheets add), else the
    Windows code page a Canadian spreadsheet would use."""
    if len(data) > MAX_BYTES:
        raise InvalidInput(
            N_(
                "The file has %(count)s bytes; at most %(most)s can be imported at once.",
                count=grouped(len(data)),
                most=grouped(MAX_BYTES),
            )
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _unescape(value: str) -> str:
    """Undoes export's guard against spreadsheet formulas (a leading apostrophe)."""
    return from_cell(value.strip())


def _read(text: str) -> tuple[list[tuple[int, dict[str, str]]], list[Said]]:
    if not text.strip():
        return [], [N_("The file is empty: it needs a header row (name, email, role) and members.")]
    reader = csv.reader(io.StringIO(text, newline=""))  # lines end in \n, \r\n or \r
    try:
        header = [h.strip().lower() for h in next(reader)]
    except (StopIteration, csv.Error):
        return [], [N_("The first row could not be read as CSV.")]
    if "name" not in header:
        return [], [
            N_(
                "The first row must name the columns: name, email, role (email and role may be "
                "left out). It reads: %(header)s.",
                header=", ".join(header) or N_("(nothing)"),
            )
        ]
    rows: list[tuple[int, dict[str, str]]] = []
    number = 1
    try:
        for number, values in enumerate(reader, start=2):
            if not any(v.strip() for v in values):
                continue
            if len(rows) >= MAX_ROWS:
                return [], [N_("The file has more than %(most)s members; split it.", most=MAX_ROWS)]
            record = {
                column: _unescape(values[i]) if i < len(values) else ""
                for i, column in enumerate(header)
                if column in COLUMNS
            }
            rows.append((number, record))
    except csv.Error as exc:
        return [], [
            N_("Row %(row)s: this row is not valid CSV (%(exc)s).", row=number + 1, exc=str(exc))
        ]
    if not rows:
        return [], [N_("The file has a header row but no members.")]
    return rows, []


def _record(
    number: int,
    record: dict[str, str],
    name: str,
    email: str,
    pool: Pool,
    club: Club,
) -> tuple[Player | None, list[str]]:
    """The record a row is, or None for a new one, and the row's problems."""
    id_text = record.get("id", "").strip()
    try:
        choice = parse_choice(id_text)
    except InvalidInput:
        return None, [
            _("Row %(row)d: id '%(id)s' is neither a record's id nor new.")
            % {"row": number, "id": id_text[:20]}
        ]
    if isinstance(choice, int) and choice not in {p.id for p in pool.rows}:
        return None, [
            _(
                "Row %(row)d: record %(id)d is not a member, a former member or a visitor of "
                "%(club)s; leave the id empty to find the person by email and name."
            )
            % {"row": number, "id": choice, "club": club.name}
        ]
    if not name and choice is None:
        return None, []
    found = pool.match(name=name, email=email, choice=choice)
    if found.ambiguous:
        facts = facts_of(found.candidates, club=club)
        listed = "; ".join(facts[p.id].summary() for p in found.candidates)
        return None, [
            _(
                "Row %(row)d: %(n)d records could be %(name)s: %(list)s. Write the id of the "
                "right one in the id column, or new for another person."
            )
            % {"row": number, "n": len(found.candidates), "name": name or email, "list": listed}
        ]
    return found.player, []


def members_csv_preview(*, club: Club, text: str, actor: Actor | None = None) -> Preview:
    """Checks every row and says what it would do. Reads only, in a fixed number of queries
    plus one per row whose person is looked for by name."""
    records, errors = _read(text)
    preview = Preview(errors=[render(e) for e in errors])
    if errors:
        return preview
    pool = Pool(*record_pools(club=club, actor=actor))
    memberships = {
        m.player_id: m for m in Membership.objects.filter(club=club).select_related("player")
    }
    member_emails = {
        m.player.email.lower(): m.player_id for m in memberships.values() if m.player.email
    }
    seen_emails: dict[str, int] = {}
    seen_players: dict[int, int] = {}
    for number, record in records:
        problems: list[Said] = []
        name = " ".join(record.get("name", "").split())
        email = record.get("email", "").strip()
        role_text = record.get("role", "").strip()
        if not name:
            problems.append(N_("Row %(number)s: the name is empty.", number=number))
        elif len(name) > NAME_MAX:
            problems.append(
                N_(
                    "Row %(number)s: the name has %(length)s characters; at most %(most)s fit.",
                    number=number,
                    length=len(name),
                    most=NAME_MAX,
                )
            )
        if email:
            try:
                validate_email(email)
            except ValidationError:
                problems.append(
                    N_(
                        "Row %(number)s: email '%(email)s' is not an email address.",
                        number=number,
                        email=email,
                    )
                )
                email = ""
            else:
                if email.lower() in seen_emails:
                    problems.append(
                        N_(
                            "Row %(number)s: email %(email)s is also on row %(row)s.",
                            number=number,
                            email=email,
                            row=seen_emails[email.lower()],
                        )
                    )
                seen_emails.setdefault(email.lower(), number)
        role = ROLE_WORDS.get(role_text.lower()) if role_text else Role.PLAYER
        if role is None:
            known = ", ".join(r.value for r in Role)
            problems.append(
                N_(
                    "Row %(number)s: role '%(role_text)s' is not one of %(known)s.",
                    number=number,
                    role_text=role_text,
                    known=known,
                )
            )
        player, found_problems = (
            (None, []) if problems else _record(number, record, name, email, pool, club)
        )
        problems += found_problems
        if player is not None:
            if player.id in seen_players:
                problems.append(
                    N_(
                        "Row %(number)s: this is the same member as row %(row)s.",
                        number=number,
                        row=seen_players[player.id],
                    )
                )
            seen_players.setdefault(player.id, number)
        owner = member_emails.get(email.lower()) if email else None
        if owner is not None and (player is None or owner != player.id):
            problems.append(
                _("Row %(row)d: %(email)s is already the email of another member of %(club)s.")
                % {"row": number, "email": email, "club": club.name}
            )
        if problems or role is None:
            preview.errors.extend(render(p) for p in problems)
            continue
        membership = memberships.get(player.id) if player is not None else None
        if player is None:
            action = Action.NEW
        elif membership is None:
            action = Action.AGAIN
        else:
            same_email = not email or player.email.lower() == email.lower()
            unchanged = player.name == name and membership.role == role and same_email
            action = Action.UNCHANGED if unchanged else Action.UPDATE
        preview.rows.append(MemberImportRow(number, name, email, role, action, membership, player))
    if not preview.errors:
        _check_admins_remain(club, preview)
    matched = [row.player for row in preview.rows if row.player is not None]
    facts = facts_of(matched, club=club)
    preview.rows = [
        replace(row, facts=facts.get(row.player.id)) if row.player is not None else row
        for row in preview.rows
    ]
    return preview


def _check_admins_remain(club: Club, preview: Preview) -> None:
    demoted = {
        row.membership.id
        for row in preview.rows
        if row.membership is not None
        and row.membership.role == Role.CLUB_ADMIN
        and row.role != Role.CLUB_ADMIN
    }
    if not demoted:
        return
    admins_after = sum(1 for row in preview.rows if row.role == Role.CLUB_ADMIN)
    listed = {row.membership.id for row in preview.rows if row.membership is not None}
    admins_after += (
        Membership.objects.filter(club=club, role=Role.CLUB_ADMIN).exclude(id__in=listed).count()
    )
    if admins_after == 0:
        first = min(
            row.number for row in preview.rows if row.membership and row.membership.id in demoted
        )
        preview.errors.append(
            render(
                N_(
                    "Row %(first)s: the club would be left with no club admin; keep at least one.",
                    first=first,
                )
            )
        )


@dataclass(frozen=True)
class Imported:
    created: int
    updated: int
    unchanged: int
    again: int = 0  # former members and visitors made members again, as the same records


@transaction.atomic
def members_csv_import(*, club: Club, text: str, actor: Actor | None = None) -> Imported:
    """Imports every row, or none: the rows are checked again (with the club locked), and any
    error refuses the whole file with a message per bad row."""
    lock_club(club.id)
    preview = members_csv_preview(club=club, text=text, actor=actor)
    if not preview.ok:
        errors: list[Said] = [*preview.errors] or [N_("The file has no members to import.")]
        raise InvalidInput(
            Np_(
                "Nothing was imported: %(count)s problem.",
                "Nothing was imported: %(count)s problems.",
                count=len(errors),
            ),
            field_errors={"rows": errors},
        )
    new_rows = [row for row in preview.rows if row.action is Action.NEW]
    players = Player.objects.bulk_create(
        [Player(name=row.name, email=row.email) for row in new_rows]
    )
    again = [row for row in preview.rows if row.action is Action.AGAIN and row.player]
    Membership.objects.bulk_create(
        [
            Membership(club=club, player=player, role=row.role)
            for row, player in zip(new_rows, players, strict=True)
        ]
        + [Membership(club=club, player=row.player, role=row.role) for row in again if row.player]
    )
    FormerMembership.objects.filter(
        club=club, player_id__in=[row.player.id for row in again if row.player]
    ).delete()
    updates = [row for row in preview.rows if row.action in (Action.UPDATE, Action.AGAIN)]
    changed: list[Player] = []
    for row in updates:
        assert row.player is not None
        if row.membership is not None:
            row.membership.role = row.role
        row.player.name = row.name
        if row.email:
            row.player.email = row.email
        changed.append(row.player)
    Membership.objects.bulk_update([r.membership for r in updates if r.membership], ["role"])
    Player.objects.bulk_update(changed, ["name", "email"])
    return Imported(
        created=len(new_rows),
        updated=sum(1 for row in updates if row.action is Action.UPDATE),
        unchanged=preview.count(Action.UNCHANGED),
        again=len(again),
    )


def members_csv_rows(*, club: Club) -> Iterable[list[str]]:
    """Every member, with the record's id: two members of one name (and no email) import back
    as themselves. ``kaiser_club.spreadsheet`` writes the rows, formulas made text."""
    yield ["id", "name", "email", "role", "joined", "has_account"]
    memberships = Membership.objects.filter(club=club).select_related("player")
    for m in memberships.order_by("player__name", "player_id"):
        yield [
            str(m.player_id),
            m.player.name,
            m.player.email,
            m.role,
            m.joined_at.date().isoformat(),
            "yes" if m.player.user_id else "no",
        ]


def members_csv_export(*, club: Club) -> str:
    return csv_text(members_csv_rows(club=club))
