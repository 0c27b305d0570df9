"""Rounds and games named as players name them: Final, Semi-final 2, Third place, Pool A,
Winners' round 2, rather than the codes the bracket stores ("Round 3 (3P, W3)", "W3-1").

The stored codes stay what they are (exports, the API and the bracket's links read them);
only what a person reads is worded here, in their language. The pages, the PDFs and the
projector all name rounds and games through these two functions."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext as _

from kaiser_club.sentences import N_, Said, Sentence, joined, render

from .choices import Format
from .pairing.pools import pool_name

CODE = re.compile(r"^(GF2|GF|3P|[WL]\d+)(?:-(\d+))?$")
LABEL_CODES = re.compile(r"\b(GF2|GF|3P|[WL]\d+)\b")


def stored_label(label: str) -> bool:
    """A label the app gave a round ("Round 3", a bracket's "Round 3 (3P, W3)"), not one an
    organiser typed."""
    return bool(LABEL_CODES.search(label)) or re.fullmatch(r"Round \d+", label) is not None


def remember_rounds(event: Any, rounds: Any) -> None:
    """Reads the bracket's depth from the event's rounds already at hand (their labels name
    every stage a round plays), so that naming them costs no query."""
    numbers = [
        int(code[1:])
        for round_ in rounds
        for code in LABEL_CODES.findall(round_.label or "")
        if code.startswith("W")
    ]
    event._last_winners_round = max(numbers, default=0)


def last_winners_round(event: Any) -> int:
    """The number of the winners' bracket's last round (its final): one query at most, kept
    on the event for the rest of the page (none where the format has no such final)."""
    cached = getattr(event, "_last_winners_round", None)
    if cached is not None:
        return int(cached)
    if event.double_bracket or not (event.is_bracket or event.staged):
        return 0
    codes = event.pairings.filter(stage="winners").values_list("code", flat=True)
    numbers = [int(m.group(1)[1:]) for c in codes if (m := CODE.match(c or ""))]
    event._last_winners_round = max(numbers, default=0)
    return int(event._last_winners_round)


def _knockout_round(event: Any, number: int, *, plural: bool) -> Sentence:
    """A single-elimination winners' round by its distance from the final."""
    if event.double_bracket:
        return N_("Winners' round %(n)s", n=number)
    to_go = last_winners_round(event) - number
    if to_go == 0:
        return N_("Final")
    if to_go == 1:
        return N_("Semi-finals") if plural else N_("Semi-final")
    if to_go == 2:
        return N_("Quarter-finals") if plural else N_("Quarter-final")
    return N_("Round %(n)s of the knockout", n=number)


def _stage(event: Any, code: str, *, plural: bool) -> Sentence:
    if code == "GF":
        return N_("Grand final")
    if code == "GF2":
        return N_("Grand final, reset game")
    if code == "3P":
        return N_("Third place")
    if code.startswith("L"):
        return N_("Losers' round %(n)s", n=int(code[1:]))
    return _knockout_round(event, int(code[1:]), plural=plural)


def round_said(round_: Any, event: Any) -> Said:
    """A round as players name it, as a sentence said in the reader's language when it is
    shown (kept in a job's summary, it is read in the language of whoever reads it):
    "Semi-finals", "Final · Third place", "Pool stage, round 2", "Round 3"; a label the
    organiser typed stays as typed."""
    codes = LABEL_CODES.findall(round_.label or "")
    if codes:
        order = {"W": 0, "L": 1, "3": 2, "G": 3}
        codes = sorted(set(codes), key=lambda c: (order.get(c[0], 9), c))
        return joined([_stage(event, code, plural=True) for code in codes], " · ")
    if round_.label and not stored_label(round_.label):
        return str(round_.label)
    if event.format == Format.POOLS:
        return N_("Pool stage, round %(n)s", n=round_.number)
    if event.format == Format.SWISS_KNOCKOUT:
        return N_("Swiss stage, round %(n)s", n=round_.number)
    if event.format == Format.ROUND_ROBIN_KNOCKOUT:
        return N_("Round-robin stage, round %(n)s", n=round_.number)
    return N_("Round %(n)s", n=round_.number)


def first_stage_title(event: Any) -> str:
    """The heading of a staged event's Swiss or round-robin table, in the active language."""
    if event.format == Format.ROUND_ROBIN_KNOCKOUT:
        return _("Round-robin stage")
    return _("Swiss stage")


def round_name(round_: Any, event: Any) -> str:
    """``round_said`` in the active language (the pages, the PDFs and the projector)."""
    return render(round_said(round_, event))


def game_name(pairing: Any, event: Any, *, short: bool = False) -> str:
    """A game of a round as players name it: "Final", "Semi-final 2", "Third place",
    "Losers' round 2, game 1", "Pool A"; empty when a round's games need no name. ``short``:
    where the bracket's section already says winners' or losers' ("Round 2, game 1")."""
    match = CODE.match(pairing.code or "")
    if match is not None:
        code, index = match.group(1), match.group(2)
        double = event.double_bracket
        if short and index is not None and double and code[0] in "WL":
            return _("Round %(n)s, game %(i)s") % {"n": int(code[1:]), "i": index}
        stage = _stage(event, code, plural=False)
        if index is None or stage.template == "Final":
            return render(stage)
        if stage.template in ("Semi-final", "Quarter-final"):
            return f"{render(stage)} {index}"
        return _("%(stage)s, game %(n)s") % {"stage": render(stage), "n": index}
    if getattr(pairing, "pool", None):
        return _("Pool %(name)s") % {"name": pool_name(pairing.pool - 1)}
    return str(pairing.code or "")
