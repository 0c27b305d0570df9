"""Sentences said to a person, kept as an English template with named parameters and put into
the reader's language where they are shown.

A service decides and raises a sentence; it does not know who will read it, nor in which
language (a page in French, an API client asking ``Accept-Language: fr``, an organiser reading
a job a worker ran hours ago). So it raises a template and its parameters::

    raise InvalidInput(N_("Bid %(bid)s is below the minimum of %(minimum)s.", bid=4, minimum=7))

and the answer (``kaiser_club.error_answers``, the API's exception handler, a page) renders it
with ``render``: the template through ``gettext`` in the language active there, then filled
with ``%``. Named placeholders let a translation put the parameters in its own order.

``N_`` is the marker ``makemessages`` extracts (``kaiser_club/management/commands/
makemessages.py`` adds it as a keyword). The pure modules, which import nothing of Django
(``scoring.rules``, ``tournaments.pairing``), define their own no-op ``N_`` and give their
errors a ``template`` and ``params``: anything with those two (``Translatable``) is rendered
the same way. A parameter may itself be a sentence or a lazy translation (a choice's label):
it is rendered in the same language. ``to_json`` / ``from_json`` keep a sentence in the
database (a job's error) so it is rendered when read, not in the worker's language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias, runtime_checkable

from django.utils import formats, translation
from django.utils.functional import Promise, lazy
from django.utils.translation import gettext, ngettext


@runtime_checkable
class Translatable(Protocol):
    """An English template (a msgid of the catalogue) and its named parameters."""

    @property
    def template(self) -> str: ...

    @property
    def params(self) -> Mapping[str, Any]: ...


Param: TypeAlias = (
    "str | int | float | Translatable | Promise | BaseException | tuple[str, ...] | list[str]"
)
# What a refusal may say: a sentence, a lazy translation, or text already in words.
Said: TypeAlias = "str | Translatable | Promise"


@dataclass(frozen=True, slots=True)
class Sentence:
    template: str
    params: Mapping[str, Param] = field(default_factory=dict)
    plural: str = ""  # the plural's template (``Np_``); the number is ``params["count"]``

    def __str__(self) -> str:
        return render(self)

    def with_params(self, **params: Param) -> Sentence:
        """The same template with (more) parameters: a template chosen from a table."""
        return Sentence(self.template, {**self.params, **params}, self.plural)

    def to_json(self) -> dict[str, Any]:
        """The sentence as JSON: nested sentences as objects, lazy names by their English
        (their msgid), so it renders in any language later."""
        data: dict[str, Any] = {"template": self.template}
        data["params"] = {k: _json(v) for k, v in self.params.items()}
        if self.plural:
            data["plural"] = self.plural
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Sentence:
        params: dict[str, Param] = {}
        for name, value in dict(data.get("params") or {}).items():
            params[name] = cls.from_json(value) if isinstance(value, dict) else value
        return cls(str(data.get("template", "")), params, str(data.get("plural", "")))


def N_(template: str, /, **params: Param) -> Sentence:
    """A sentence to be said in the reader's language: ``template`` is extracted by
    ``makemessages`` and translated when the sentence is shown."""
    return Sentence(template, params)


def Np_(singular: str, plural: str, /, *, count: int, **params: Param) -> Sentence:
    """A sentence with a singular and a plural, chosen by ``count`` in the reader's language
    (extracted as ``Np_:1,2``)."""
    return Sentence(singular, {"count": count, **params}, plural)


def grouped(number: int) -> str:
    """A whole number with the reader's thousands separator (1,048,576; 1 048 576 in
    French), written when the sentence is rendered."""
    return _grouped(number)


def _group(number: int) -> str:
    return formats.number_format(number, force_grouping=True)


_grouped = lazy(_group, str)


def joined(parts: Sequence[Param], separator: str = ", ") -> Sentence:
    """Sentences (or names) one after the other, each in the reader's language."""
    names = [f"p{i}" for i in range(len(parts))]
    return Sentence(
        separator.join(f"%({name})s" for name in names), dict(zip(names, parts, strict=True))
    )


def render(text: Said) -> str:
    """The sentence in the active language (a plain ``str`` is already a sentence)."""
    if isinstance(text, str):
        return text
    if isinstance(text, Promise):
        return str(text)
    plural = getattr(text, "plural", "")
    if plural:
        template = ngettext(text.template, plural, int(text.params.get("count", 0)))
    else:
        template = gettext(text.template) if text.template else ""
    if not text.params:
        return template
    return template % {name: _param(value) for name, value in text.params.items()}


def of(exc: BaseException) -> Said:
    """What an exception says: its sentence if it carries one (a ``KaiserError``, a pure
    module's error with a template, the rules' errors with their refusals), else its text."""
    text = getattr(exc, "text", None)
    if isinstance(text, str | Translatable | Promise):
        return text
    if isinstance(exc, Translatable):
        return exc
    refusals = getattr(exc, "refusals", None)
    if refusals and all(isinstance(r, Translatable) for r in refusals):
        return joined(refusals, " ")
    return str(exc)


def stored(said: Said) -> dict[str, Any]:
    """What is said, as JSON to keep (``Sentence.from_json`` reads it back): a sentence with
    its parameters, a lazy translation by its msgid; a text already in words as it is."""
    if isinstance(said, str):
        return {"template": said, "params": {}}
    value = _json(said)
    assert isinstance(value, dict)
    return value


def read_back(kept: Mapping[str, Any] | None, english: str) -> str:
    """A sentence kept by ``stored``, in the active language; ``english`` where none was kept
    (rows written before sentences were kept)."""
    return render(Sentence.from_json(kept)) if kept else english


def listed(names: Sequence[str]) -> str:
    """Names as a list in the reader's language: 'A', 'A and B', 'A, B and C'."""
    if len(names) <= 1:
        return "".join(names)
    return gettext("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def _param(value: object) -> object:
    if isinstance(value, tuple | list):
        return listed([str(name) for name in value])
    if isinstance(value, BaseException):
        return render(of(value))
    if isinstance(value, Promise | Translatable) and not isinstance(value, str):
        return render(value)
    return value


def _json(value: object) -> object:
    if isinstance(value, BaseException):
        value = of(value)
    if isinstance(value, Translatable) and not isinstance(value, str):
        return Sentence(value.template, dict(value.params), getattr(value, "plural", "")).to_json()
    if isinstance(value, Promise):
        with translation.override("en"):
            return {"template": str(value), "params": {}}
    return value
