"""The marks a standings row carries and the legend that explains them, said once for the public
pages and the standings PDF: a win on time marks the wins ("3*"), a withdrawn team and its byes
are noted after its name ("(withdrawn, 1 bye)"), and a legend under the table says what each
mark that appears means."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from django.utils.translation import gettext, ngettext

ON_TIME = "*"


class Marked(Protocol):
    withdrawn: bool
    byes: int
    wins_on_time: int


def name_note(row: Marked) -> str:
    """What follows the name: "(withdrawn, 1 bye)", or nothing."""
    words = [gettext("withdrawn")] if row.withdrawn else []
    if row.byes:
        words.append(ngettext("%(n)s bye", "%(n)s byes", row.byes) % {"n": row.byes})
    return f"({', '.join(words)})" if words else ""


def wins_mark(row: Marked) -> str:
    return ON_TIME if row.wins_on_time else ""


def legend(rows: Iterable[Marked]) -> list[str]:
    """A sentence for each kind of mark the rows carry, in the order of the columns."""
    rows = list(rows)
    said = []
    if any(row.withdrawn for row in rows):
        said.append(gettext("Withdrawn: no longer paired; the games it played stand."))
    if any(row.byes for row in rows):
        said.append(
            gettext(
                "A bye counts as a win, with the round's average winning and losing scores (to "
                "the nearest point, a half to the even one), once a game of its round has "
                "ended, unless the organiser sets its points."
            )
        )
    if any(row.wins_on_time for row in rows):
        said.append(
            gettext("%(mark)s Won on time: time was called and the higher score won.")
            % {"mark": ON_TIME}
        )
    return said
