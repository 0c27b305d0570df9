"""A hand as stored in a game's history, in words: "bid 8, no trump · 5 tricks", never the
codes it is kept as ("8 no_trump · 5")."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext as _

from ..choices import ContractChoice, MisdealReasonChoice, SuitChoice

register = template.Library()


@register.filter
def hand_in_words(entry: Any) -> str:
    if not isinstance(entry, dict):
        return ""
    if entry.get("kind") == "misdeal":
        reason = dict(MisdealReasonChoice.choices).get(entry.get("misdeal_reason") or "")
        return f"{_('Misdeal')} ({reason})" if reason else _("Misdeal")
    contract = str(dict(ContractChoice.choices).get(entry.get("contract") or "", ""))
    if entry.get("contract") == ContractChoice.TRUMP and entry.get("trump"):
        contract = str(dict(SuitChoice.choices).get(entry["trump"], contract))
    tricks = entry.get("bidding_team_tricks")
    words = _("bid %(bid)s, %(contract)s") % {"bid": entry.get("bid", ""), "contract": contract}
    if tricks is not None:
        words += " · " + _("%(n)s tricks") % {"n": tricks}
    return words
