"""A game's rule set by its title in the user's language."""

from __future__ import annotations

from typing import Any

from django import template

from ..words import preset_title

register = template.Library()


@register.filter
def preset_in_words(name: str) -> Any:
    return preset_title(name)
