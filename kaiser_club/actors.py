"""Who is acting: a signed-in user, or a tablet that holds a table's code (or both). Every
action service takes one, so that the same rules answer whichever door the request came in by."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.models import AnonymousUser, User

from .roles import Role
from .selectors import AnyUser, role_in_club


@dataclass(frozen=True)
class Actor:
    user: AnyUser
    table_id: int | None = None  # the table whose code this device holds
    label: str = ""  # who, for a game's history, when no account acted (a tablet)
    _roles: dict[int | None, Role | None] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    @classmethod
    def of(cls, user: AnyUser | None) -> Actor:
        return cls(user=user if user is not None else AnonymousUser())

    @property
    def by(self) -> User | None:
        """The account to record as having acted, if any."""
        return self.user if isinstance(self.user, User) and self.user.is_authenticated else None

    @property
    def is_staff(self) -> bool:
        return bool(getattr(self.user, "is_staff", False))

    def role_in(self, club_id: int | None) -> Role | None:
        """The actor's role in the club (asked once per club for the actor's lifetime)."""
        if club_id not in self._roles:
            self._roles[club_id] = role_in_club(user=self.user, club_id=club_id)
        return self._roles[club_id]

    def remember_role(self, club_id: int | None, role: Role | None) -> None:
        """The role in the club, read along with something else (saves asking again)."""
        self._roles[club_id] = role

    def has_role(self, *, club_id: int | None, at_least: Role) -> bool:
        role = self.role_in(club_id)
        return role is not None and role.includes(at_least)
