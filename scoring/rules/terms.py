"""Words the engine says, kept translatable without Django.

``N_`` marks an English template for ``makemessages`` (the project's command extracts it) and
returns it unchanged. A :class:`Term` is a name the engine puts into a sentence (a team, a
seat, a contract, a rule option): a template with no parameters, so the Django side renders
it in the reader's language like any sentence (``kaiser_club.sentences.render`` takes anything
with a ``template`` and ``params``); ``str()`` gives the English."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

NO_PARAMS: Mapping[str, object] = MappingProxyType({})


def N_(template: str) -> str:
    """Marks ``template`` for translation; it is translated where it is shown."""
    return template


@dataclass(frozen=True)
class Term:
    template: str

    @property
    def params(self) -> Mapping[str, object]:
        return NO_PARAMS

    def __str__(self) -> str:
        return self.template
