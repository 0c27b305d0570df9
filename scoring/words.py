"""The rules' names in the user's language: the pure rules keep their presets' titles in
English; pages, PDFs and forms show them through ``preset_title``."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

PRESET_TITLES: dict[str, Any] = {
    "standard": _("Standard (pagat)"),
    "club": _("Club sheet"),
    "tournament": _("Tournament (club sheet)"),
    "saskatchewan": _("Saskatchewan"),
    "les_rois": _("Les Rois (Québec)"),
    "joffre": _("Joffre (Québec)"),
}


def preset_title(name: str, title: str = "") -> Any:
    """A preset's title in the user's language (the rules keep it in English)."""
    return PRESET_TITLES.get(name, title or name)
