"""Records that are likely one person: the merge page's suggestions.

Among the records a club knows (members, former members, visitors, players of its
partnerships): the same name once folded, close names ("Stan Melnyk", "Stan Melnik",
"S. Melnyk"), or exactly the same partners. Pairs that cannot be one person are left out: two
records that sat at one game or partnered each other, two that each sign in, two with different
emails. A fixed number of queries, whatever the size of the club."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from django.utils.translation import gettext as _

from ..models import Club, Player
from ..people import (
    Facts,
    facts_of,
    name_key,
    names_close,
    pairs_that_met,
    partners_of,
    players_known_to,
)

BUCKET_MAX = 60  # a bucket (a common first name) larger than this is not compared pairwise
PARTNER_GROUP_MAX = 6
SHOWN = 20


@dataclass(frozen=True)
class Suggestion:
    one: Facts
    other: Facts
    reasons: tuple[str, ...]
    rank: int  # 0: the same name, 1: close names, 2: the same partners only


def likely_duplicates(*, club: Club, limit: int = SHOWN) -> list[Suggestion]:
    rows = list(
        players_known_to(club_ids=[club.id]).only("id", "name", "email", "user_id", "host_club_id")
    )
    by_id = {p.id: p for p in rows}
    keys = {p.id: name_key(p.name) for p in rows}
    buckets: dict[str, list[int]] = {}
    for pid, key in keys.items():
        words = key.split()
        if not words:
            continue
        for bucket in {f"l:{words[-1]}", f"f:{words[0]}", f"k:{key[:4]}"}:
            buckets.setdefault(bucket, []).append(pid)
    reasons: dict[frozenset[int], set[str]] = {}
    ranks: dict[frozenset[int], int] = {}
    for members in buckets.values():
        if len(members) > BUCKET_MAX:
            continue
        for a, b in combinations(members, 2):
            pair = frozenset((a, b))
            if pair in ranks or not names_close(keys[a], keys[b]):
                continue
            same = keys[a] == keys[b]
            reasons.setdefault(pair, set()).add(_("the same name") if same else _("close names"))
            ranks[pair] = 0 if same else 1
    partners = partners_of(list(by_id))
    groups: dict[frozenset[int], list[int]] = {}
    for pid, theirs in partners.items():
        if theirs:
            groups.setdefault(frozenset(theirs), []).append(pid)
    for shared, members in groups.items():
        if len(members) > PARTNER_GROUP_MAX:
            continue
        names = ", ".join(sorted(by_id[p].name for p in shared if p in by_id)) or "?"
        for a, b in combinations(members, 2):
            pair = frozenset((a, b))
            reasons.setdefault(pair, set()).add(
                _("the same partners (%(names)s)") % {"names": names}
            )
            ranks.setdefault(pair, 2)
    pairs = [pair for pair in reasons if _may_be_one(*(by_id[p] for p in pair))]
    if not pairs:
        return []
    involved = sorted({p for pair in pairs for p in pair})
    met = pairs_that_met(involved)
    pairs = [pair for pair in pairs if pair not in met]
    pairs.sort(key=lambda pair: (ranks[pair], sorted(keys[p] for p in pair), sorted(pair)))
    pairs = pairs[:limit]
    facts = facts_of([by_id[p] for pair in pairs for p in pair], club=club)
    found = []
    for pair in pairs:
        # The record to keep first: the member here, then the one with more games, then the older.
        one, other = sorted(pair, key=lambda p: (not facts[p].member_here, -facts[p].games, p))
        found.append(
            Suggestion(facts[one], facts[other], tuple(sorted(reasons[pair])), ranks[pair])
        )
    return found


def _may_be_one(a: Player, b: Player) -> bool:
    if a.user_id is not None and b.user_id is not None:
        return False
    return not (a.email and b.email and a.email.lower() != b.email.lower())
