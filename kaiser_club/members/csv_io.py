"""Members to and from CSV. Import is two steps: a preview that checks every row and says what
each would do, then the import itself, which checks again and writes all rows or none.

The file: a header row naming the columns, then one member a row. ``name`` is required;
``email`` and ``role`` may be left out (role: player). Other columns are ignored, so a file
exported here imports as it is. Rows are numbered as a spreadsheet shows them: the header is
row 1, the first member row 2.

A row whose email (or, without an email, whose name) matches a member of the club updates that
member's role and name; any other row makes a new player record and membership.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction

from ..errors import InvalidInput
from ..models import Club, Membership, Player
from ..roles import Role
from ..spreadsheet import check_csv_size, csv_text, from_cell
from .services import NAME_MAX, lock_club

MAX_BYTES = 1_000_000
MAX_ROWS = 5000
COLUMNS = ("name", "email", "role")
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


@dataclass(frozen=True)
class Row:
    number: int
    name: str
    email: str
    role: Role
    action: Action
    membership: Membership | None = None

    @property
    def changes(self) -> list[str]:
        if self.membership is None:
            return []
        found = []
        if self.membership.player.name != self.name:
            found.append(f"name {self.membership.player.name} → {self.name}")
        if self.membership.role != self.role:
            found.append(f"role {Role(self.membership.role).label} → {self.role.label}")
        return found


@dataclass
class Preview:
    rows: list[Row] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors and bool(self.rows)

    def count(self, action: Action) -> int:
        return sum(1 for row in self.rows if row.action is action)


def check_size(text: str) -> None:
    """Refuses a file bigger than one import takes, before the preview or the import (and its
    transaction) reads it: the page calls this first."""
    check_csv_size(text, max_bytes=MAX_BYTES, max_rows=MAX_ROWS, rows_are="members")


def decode(data: bytes) -> str:
    """Text from an uploaded file: UTF-8 (with or without the mark spreadsheets add), else the
    Windows code page a Canadian spreadsheet would use."""
    if len(data) > MAX_BYTES:
        raise InvalidInput(
            f"The file has {len(data):,} bytes; at most {MAX_BYTES:,} can be imported at once."
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _unescape(value: str) -> str:
    """Undoes export's guard against spreadsheet formulas (a leading apostrophe)."""
    return from_cell(value.strip())


def _read(text: str) -> tuple[list[tuple[int, dict[str, str]]], list[str]]:
    if not text.strip():
        return [], ["The file is empty: it needs a header row (name, email, role) and members."]
    reader = csv.reader(io.StringIO(text))
    try:
        header = [h.strip().lower() for h in next(reader)]
    except (StopIteration, csv.Error):
        return [], ["The first row could not be read as CSV."]
    if "name" not in header:
        return [], [
            "The first row must name the columns: name, email, role (email and role may be "
            f"left out). It reads: {', '.join(header) or '(nothing)'}."
        ]
    rows: list[tuple[int, dict[str, str]]] = []
    number = 1
    try:
        for number, values in enumerate(reader, start=2):
            if not any(v.strip() for v in values):
                continue
            if len(rows) >= MAX_ROWS:
                return [], [f"The file has more than {MAX_ROWS} members; split it."]
            record = {
                column: _unescape(values[i]) if i < len(values) else ""
                for i, column in enumerate(header)
                if column in COLUMNS
            }
            rows.append((number, record))
    except csv.Error as exc:
        return [], [f"Row {number + 1}: this row is not valid CSV ({exc})."]
    if not rows:
        return [], ["The file has a header row but no members."]
    return rows, []


def _matches(club: Club) -> tuple[dict[str, Membership], dict[str, list[Membership]]]:
    by_email: dict[str, Membership] = {}
    by_name: dict[str, list[Membership]] = {}
    for membership in Membership.objects.filter(club=club).select_related("player"):
        if membership.player.email:
            by_email[membership.player.email.lower()] = membership
        by_name.setdefault(membership.player.name.lower(), []).append(membership)
    return by_email, by_name


def members_csv_preview(*, club: Club, text: str) -> Preview:
    """Checks every row and says what it would do. Reads only; at most two queries."""
    records, errors = _read(text)
    preview = Preview(errors=errors)
    if errors:
        return preview
    by_email, by_name = _matches(club)
    seen_emails: dict[str, int] = {}
    seen_members: dict[int, int] = {}
    for number, record in records:
        problems = []
        name = " ".join(record.get("name", "").split())
        email = record.get("email", "").strip()
        role_text = record.get("role", "").strip()
        if not name:
            problems.append(f"Row {number}: the name is empty.")
        elif len(name) > NAME_MAX:
            problems.append(
                f"Row {number}: the name has {len(name)} characters; at most {NAME_MAX} fit."
            )
        if email:
            try:
                validate_email(email)
            except ValidationError:
                problems.append(f"Row {number}: email '{email}' is not an email address.")
            else:
                if email.lower() in seen_emails:
                    problems.append(
                        f"Row {number}: email {email} is also on row {seen_emails[email.lower()]}."
                    )
                seen_emails.setdefault(email.lower(), number)
        role = ROLE_WORDS.get(role_text.lower()) if role_text else Role.PLAYER
        if role is None:
            known = ", ".join(r.value for r in Role)
            problems.append(f"Row {number}: role '{role_text}' is not one of {known}.")
        membership = by_email.get(email.lower()) if email else None
        if membership is None and not email and name:
            same_name = [m for m in by_name.get(name.lower(), []) if not m.player.email]
            if len(same_name) > 1:
                problems.append(
                    f"Row {number}: {len(same_name)} members are called {name} and have no "
                    "email; add an email to this row to say which one it is."
                )
            elif same_name:
                membership = same_name[0]
        if membership is not None:
            if membership.id in seen_members:
                problems.append(
                    f"Row {number}: this is the same member as row {seen_members[membership.id]}."
                )
            seen_members.setdefault(membership.id, number)
        if problems or role is None:
            preview.errors.extend(problems)
            continue
        if membership is None:
            action = Action.NEW
        else:
            unchanged = membership.player.name == name and membership.role == role
            action = Action.UNCHANGED if unchanged else Action.UPDATE
        preview.rows.append(Row(number, name, email, role, action, membership))
    if not preview.errors:
        _check_admins_remain(club, preview)
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
            f"Row {first}: the club would be left with no club admin; keep at least one."
        )


@dataclass(frozen=True)
class Imported:
    created: int
    updated: int
    unchanged: int


@transaction.atomic
def members_csv_import(*, club: Club, text: str) -> Imported:
    """Imports every row, or none: the rows are checked again (with the club locked), and any
    error refuses the whole file with a message per bad row."""
    lock_club(club.id)
    preview = members_csv_preview(club=club, text=text)
    if not preview.ok:
        errors = preview.errors or ["The file has no members to import."]
        raise InvalidInput(
            f"Nothing was imported: {len(errors)} problem{'s' if len(errors) != 1 else ''}.",
            field_errors={"rows": errors},
        )
    new_rows = [row for row in preview.rows if row.action is Action.NEW]
    players = Player.objects.bulk_create(
        [Player(name=row.name, email=row.email) for row in new_rows]
    )
    Membership.objects.bulk_create(
        [
            Membership(club=club, player=player, role=row.role)
            for row, player in zip(new_rows, players, strict=True)
        ]
    )
    updates = [row for row in preview.rows if row.action is Action.UPDATE]
    for row in updates:
        assert row.membership is not None
        row.membership.role = row.role
        row.membership.player.name = row.name
    Membership.objects.bulk_update([r.membership for r in updates if r.membership], ["role"])
    Player.objects.bulk_update([r.membership.player for r in updates if r.membership], ["name"])
    return Imported(
        created=len(new_rows), updated=len(updates), unchanged=preview.count(Action.UNCHANGED)
    )


def members_csv_rows(*, club: Club) -> Iterable[list[str]]:
    """The export's rows; ``kaiser_club.spreadsheet`` writes them, formulas made text."""
    yield ["name", "email", "role", "joined", "has_account"]
    memberships = Membership.objects.filter(club=club).select_related("player")
    for m in memberships.order_by("player__name", "player_id"):
        yield [
            m.player.name,
            m.player.email,
            m.role,
            m.joined_at.date().isoformat(),
            "yes" if m.player.user_id else "no",
        ]


def members_csv_export(*, club: Club) -> str:
    return csv_text(members_csv_rows(club=club))
