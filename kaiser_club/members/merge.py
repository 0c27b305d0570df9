"""Merging two player records of one person into one.

Every row that points at the duplicate (memberships, teams, game seats, registrations of any
app) is re-pointed at the record kept, in one transaction. kaiser_club knows no other app, so
the rows are found through the relations Django knows of, not by name. A merge is refused,
before anything changes, when the two records were two people after all: they sat at one game,
partnered each other in a team, or both have a sign-in account.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import permutations

from django.db import IntegrityError, models, transaction
from django.db.models import Q
from django.utils.functional import lazy
from django.utils.translation import gettext as _

from kaiser_club.sentences import N_, Said, joined, render

from ..actors import Actor
from ..errors import Conflict, InvalidInput, NotAllowed, NotFound
from ..models import FormerMembership, Invitation, Membership, Player
from ..roles import Role
from ..selectors import club_ids_with_role
from .selectors import clubs_where_not_admin, players_managed_by

EXAMPLES = 3  # rows named in a refusal


@dataclass(frozen=True)
class MergeReport:
    kept: Player
    merged_name: str
    moved: dict[type[models.Model], int] = field(default_factory=dict)  # rows moved, by model
    notes: list[Said] = field(default_factory=list)

    def summary(self) -> str:
        moved = joined([_rows(model, count) for model, count in self.moved.items() if count])
        names = {"merged": self.merged_name, "kept": self.kept.name}
        said = (
            N_("%(merged)s was merged into %(kept)s (%(moved)s moved).", moved=moved, **names)
            if moved.params
            else N_("%(merged)s was merged into %(kept)s.", **names)
        )
        return " ".join(render(text) for text in [said, *self.notes])


def _rows(model: type[models.Model], count: int) -> Said:
    """ "1 game", "3 games": the model's own names, in the reader's language (English and
    French agree on one and more than one; a count of 0 is not said)."""
    names = model._meta
    what = names.verbose_name if count == 1 else names.verbose_name_plural
    return N_("%(count)s %(what)s", count=count, what=what or model.__name__)


def player_fields_by_model() -> dict[type[models.Model], list[models.Field]]:
    """Every concrete foreign key (or one-to-one) to Player, grouped by the model holding it.
    Hidden relations count too: game seats and team players have no reverse name."""
    found: dict[type[models.Model], list[models.Field]] = {}
    for relation in Player._meta.get_fields(include_hidden=True):
        if not isinstance(relation, models.ForeignObjectRel) or relation.many_to_many:
            continue  # a many-to-many's through model is listed with its own foreign keys
        model = relation.related_model
        assert isinstance(model, type)
        fields = found.setdefault(model, [])
        if relation.field not in fields:
            fields.append(relation.field)
    return found


def _names(rows: Iterable[models.Model]) -> str:
    """The rows as a refusal names them, worded when it is shown, in the reader's language
    (a game is "A v B" in English, "A c. B" in French)."""
    rows = list(rows)
    return _lazy_text(lambda: "; ".join(f"“{row}”" for row in rows))


_lazy_text = lazy(lambda make: make(), str)


def _refuse_two_people(
    keep: Player, dup: Player, model: type[models.Model], fields: list[models.Field]
) -> None:
    """A row that names both records (two seats of one game, the two players of a team)."""
    if len(fields) < 2:
        return
    both = Q()
    for one, other in permutations(fields, 2):
        both |= Q(**{one.name: dup.id, other.name: keep.id})
    rows = list(model._default_manager.filter(both)[:EXAMPLES])
    if rows:
        what = model._meta.verbose_name
        raise Conflict(
            N_(
                "%(kept)s and %(merged)s both appear in the same %(what)s: %(names)s. One person "
                "cannot take two places there, so these are two different people; nothing was "
                "merged.",
                kept=keep.name,
                merged=dup.name,
                what=what or "",
                names=_names(rows),
            ),
            code="two_people",
        )


def _attname(model: type[models.Model], name: str) -> str:
    found = model._meta.get_field(name)
    return found.attname if isinstance(found, models.Field) else name


def _refuse_unique_clash(
    keep: Player, dup: Player, model: type[models.Model], player_field: models.Field
) -> None:
    """Re-pointing would break a unique rule of another app (say, one entry per event)."""
    groups: list[tuple[list[str], Q]] = []
    if player_field.unique:
        groups.append(([], Q()))
    for together in model._meta.unique_together:
        groups.append((list(together), Q()))
    for c in model._meta.constraints:
        if isinstance(c, models.UniqueConstraint) and c.fields:
            condition = c.condition if isinstance(c.condition, Q) else Q()
            groups.append((list(c.fields), condition))
    names = (player_field.name, player_field.attname)
    manager = model._default_manager
    for fields, condition in groups:
        if fields and not any(name in fields for name in names):
            continue
        others = [f for f in fields if f not in names]
        kept_rows = manager.filter(condition, **{player_field.name: keep.id})
        dup_rows = manager.filter(condition, **{player_field.name: dup.id})
        if not others:
            rows = list(kept_rows[:EXAMPLES]) if kept_rows.exists() and dup_rows.exists() else []
        else:
            taken = set(kept_rows.values_list(*others))
            rows = [
                row
                for row in dup_rows
                if tuple(getattr(row, _attname(model, f)) for f in others) in taken
            ][:EXAMPLES]
        if rows:
            raise Conflict(
                N_(
                    "%(kept)s and %(merged)s each have their own %(verbose_name)s where only one "
                    "is allowed: %(names)s. Remove one of them first; nothing was merged.",
                    kept=keep.name,
                    merged=dup.name,
                    verbose_name=model._meta.verbose_name or "",
                    names=_names(rows),
                ),
                code="merge_clash",
            )


def _merge_former_memberships(keep: Player, dup: Player) -> None:
    """A club's past keeps one row per record: the duplicate's former membership of a club the
    record kept belongs to (now or in the past) goes; so does a former membership of the record
    kept in a club the duplicate is a member of (the merged record is a member there)."""
    keep_clubs = set(Membership.objects.filter(player=keep).values_list("club_id", flat=True))
    keep_clubs |= set(
        FormerMembership.objects.filter(player=keep).values_list("club_id", flat=True)
    )
    FormerMembership.objects.filter(player=dup, club_id__in=keep_clubs).delete()
    dup_clubs = Membership.objects.filter(player=dup).values_list("club_id", flat=True)
    FormerMembership.objects.filter(player=keep, club_id__in=list(dup_clubs)).delete()


def _merge_memberships(keep: Player, dup: Player) -> list[Said]:
    """Both members of one club: the record kept stays a member, with the higher role."""
    _merge_former_memberships(keep, dup)
    notes: list[Said] = []
    kept = {m.club_id: m for m in Membership.objects.filter(player=keep).select_related("club")}
    for theirs in Membership.objects.filter(player=dup, club_id__in=kept):
        ours = kept[theirs.club_id]
        if Role(theirs.role).rank > Role(ours.role).rank:
            ours.role = theirs.role
            ours.save(update_fields=["role"])
        theirs.delete()
        notes.append(
            N_(
                "Both were members of %(club)s; one membership remains, as %(role)s.",
                club=ours.club.name,
                role=Role(ours.role).label,
            )
        )
    return notes


def require_may_merge(*, actor: Actor, keep: Player, duplicate: Player) -> None:
    """Who may merge two records: a club admin of a club that knows each record (a member, a
    former member, a visitor, a player of its partnerships) and of every club either record is
    a member of (staff: any two records). The merge page asks before it shows the
    confirmation."""
    players = [keep, duplicate]
    managed = set(
        players_managed_by(user=actor.user)
        .filter(id__in=[p.id for p in players])
        .values_list("id", flat=True)
    )
    outside = [p for p in players if p.id not in managed]
    if outside:
        raise NotAllowed(
            _(
                "Player %(id)s is not a member, a former member or a visitor of a club where "
                "you are a club admin, so you cannot merge this record; nothing was merged."
            )
            % {"id": outside[0].id}
        )
    elsewhere = clubs_where_not_admin(user=actor.user, players=players)
    member_of = set(club_ids_with_role(user=actor.user, at_least=Role.PLAYER) or ())
    if any(club.id not in member_of for club in elsewhere):
        # A club the actor is not in is not named: a refusal tells nothing of other clubs.
        raise NotAllowed(
            N_(
                "One of these records is a member of a club you are not in, so you cannot "
                "merge them. Ask a club admin of every club involved, or staff."
            )
        )
    if elsewhere:
        raise NotAllowed(
            _(
                "%(names)s: you are not a club admin there, so you cannot merge these "
                "records. Ask a club admin of every club involved, or staff."
            )
            % {"names": ", ".join(c.name for c in elsewhere)}
        )


@transaction.atomic
def player_merge(*, actor: Actor, keep_id: int, duplicate_id: int) -> MergeReport:
    """The actor merges the duplicate record into the record kept, if they may (see
    ``require_may_merge``)."""
    if keep_id == duplicate_id:
        raise InvalidInput(N_("Pick two different player records to merge."))
    found = {p.id: p for p in Player.objects.filter(id__in=[keep_id, duplicate_id])}
    if len(found) != 2:
        raise NotFound(N_("One of the two player records no longer exists; nothing was merged."))
    require_may_merge(actor=actor, keep=found[keep_id], duplicate=found[duplicate_id])
    return merge_records(keep_id=keep_id, duplicate_id=duplicate_id)


@transaction.atomic
def merge_records(*, keep_id: int, duplicate_id: int) -> MergeReport:
    """Moves everything of the duplicate record to the record kept, then deletes the duplicate.
    No role is checked: callers hold their own authority (``player_merge`` checks the actor's
    roles; an accepted invitation merges the invited record into the person's own)."""
    if keep_id == duplicate_id:
        raise InvalidInput(N_("Pick two different player records to merge."))
    locked = {
        p.id: p
        for p in Player.objects.select_for_update()
        .filter(id__in=[keep_id, duplicate_id])
        .order_by("id")
    }
    if len(locked) != 2:
        raise NotFound(N_("One of the two player records no longer exists; nothing was merged."))
    keep, dup = locked[keep_id], locked[duplicate_id]
    if keep.user_id is not None and dup.user_id is not None:
        raise Conflict(
            N_(
                "%(kept)s and %(merged)s each sign in with their own account; a person has one. If "
                "they are one person, have them keep one account and ask staff to remove the other "
                "first; nothing was merged.",
                kept=keep.name,
                merged=dup.name,
            ),
            code="two_accounts",
        )
    by_model = player_fields_by_model()
    for model, fields in by_model.items():
        _refuse_two_people(keep, dup, model, fields)
        if model not in (Membership, FormerMembership):
            for player_field in fields:
                _refuse_unique_clash(keep, dup, model, player_field)

    notes = _merge_memberships(keep, dup)
    Invitation.objects.filter(
        player=dup, accepted_at__isnull=True, revoked_at__isnull=True
    ).delete()  # a link to the duplicate must not claim the record kept
    moved: dict[type[models.Model], int] = {}
    try:
        with transaction.atomic():
            for model, fields in by_model.items():
                count = 0
                for player_field in fields:
                    count += model._default_manager.filter(**{player_field.name: dup.id}).update(
                        **{player_field.name: keep.id}
                    )
                moved[model] = count
    except IntegrityError as exc:
        raise Conflict(
            N_(
                "%(kept)s and %(merged)s cannot be merged: the database refused it (%(exc)s). "
                "Nothing was merged.",
                kept=keep.name,
                merged=dup.name,
                exc=exc,
            ),
            code="merge_clash",
        ) from None

    if keep.user_id is None and dup.user_id is not None:
        user_id = dup.user_id
        dup.user = None
        dup.save(update_fields=["user"])
        keep.user_id = user_id
        notes.append(
            N_("%(kept)s now signs in with %(merged)s's account.", kept=keep.name, merged=dup.name)
        )
    if not keep.email and dup.email:
        keep.email = dup.email
    if keep.host_club_id is None:
        keep.host_club_id = dup.host_club_id  # still a visitor of the club that typed it in
    keep.save()
    merged_name = dup.name
    dup.delete()
    return MergeReport(kept=keep, merged_name=merged_name, moved=moved, notes=notes)
