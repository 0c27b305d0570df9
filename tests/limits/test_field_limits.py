"""A guard: every value an input takes fits where it is stored.

Every serializer and form of the app is listed here as an input (it writes) or an output (it
only presents); a new one fails ``test_every_serializer_and_form_is_classified`` until it is.
For each input: every integer and float field has a lower and an upper bound, every text field
a maximum length (the few big-text fields are listed with their own limit), and a field that
is stored in a column fits that column (its ``max_length``, or the integer range of its type).

Which column a field is stored in: a model serializer's or model form's own model says it; for
the others, ``STORED`` (a subclass adds to its bases' fields). Every text or number field of an
input is either stored so, or big text, or listed in ``NOT_STORED`` with what bounds it instead:
a new field fails ``test_every_text_and_number_field_is_stored_or_says_why`` until it is.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from typing import Any

import pytest
from django import forms
from django.db import connection
from django.db.models import CharField, Field, FloatField, IntegerField
from rest_framework import serializers

from kaiser_club.models import Player
from scoring.models import Game, GameChange, Hand, Team
from tournaments.models import Entry, Event, Pairing, Season, Substitution

APPS = ("kaiser_club", "scoring", "tournaments")


# Input field -> the column it is stored in, where it is stored as given.
def column(model: Any, name: str) -> Field[Any, Any]:
    found = model._meta.get_field(name)
    assert isinstance(found, Field)
    return found


EVENT_SETTINGS = {
    name: column(Event, name)
    for name in (
        "name",
        "venue",
        "minutes_per_game",
        "rounds",
        "forfeit_winner_score",
        "forfeit_loser_score",
        "pool_count",
        "pool_advance",
        "knockout_size",
        "capacity",
    )
}

STORED: dict[str, dict[str, Field[Any, Any]]] = {
    "scoring.api.serializers.TeamSerializer": {"name": column(Team, "name")},
    "scoring.api.serializers.HandEntrySerializer": {
        "bid": column(Hand, "bid"),
        "bidding_team_tricks": column(Hand, "bidding_team_tricks"),
        "bidder_tricks": column(Hand, "bidder_tricks"),
    },
    "scoring.api.serializers.HandRecordSerializer": {"number": column(Hand, "number")},
    "scoring.api.serializers.HandUndoSerializer": {
        "number": column(Hand, "number"),
        "reason": column(GameChange, "reason"),
    },
    "scoring.api.serializers.HandCorrectSerializer": {
        "reason": column(GameChange, "reason"),
        "version": column(Game, "version"),
    },
    "scoring.forms.HandForm": {
        "number": column(Hand, "number"),
        "bid": column(Hand, "bid"),
        "bidding_team_tricks": column(Hand, "bidding_team_tricks"),
        "bidder_tricks": column(Hand, "bidder_tricks"),
    },
    "scoring.forms.PaperHandForm": {
        "number": column(Hand, "number"),
        "bid": column(Hand, "bid"),
        "bidding_team_tricks": column(Hand, "bidding_team_tricks"),
        "bidder_tricks": column(Hand, "bidder_tricks"),
        "client_id": column(Hand, "client_id"),
    },
    "scoring.forms.HandCorrectionForm": {
        "number": column(Hand, "number"),
        "version": column(Game, "version"),
        "bid": column(Hand, "bid"),
        "bidding_team_tricks": column(Hand, "bidding_team_tricks"),
        "bidder_tricks": column(Hand, "bidder_tricks"),
        "reason": column(GameChange, "reason"),
    },
    "scoring.api.serializers.GameCreateSerializer": {"preset": column(Game, "preset")},
    "scoring.api.serializers.ForfeitSerializer": {"reason": column(GameChange, "reason")},
    "scoring.api.serializers.AddMinutesSerializer": {"minutes": column(Game, "added_minutes")},
    "kaiser_club.api.members.MemberCreateSerializer": {
        "name": column(Player, "name"),
        "email": column(Player, "email"),
        "player_id": column(Player, "id"),
    },
    "tournaments.api.serializers.SeasonSerializer": {"name": column(Season, "name")},
    "tournaments.api.serializers.EventSettingsSerializer": EVENT_SETTINGS,
    "tournaments.api.serializers.EntryCreateSerializer": {
        "name": column(Entry, "name"),
        "seed": column(Entry, "seed"),
        "rating": column(Entry, "rating"),
    },
    "tournaments.api.serializers.EntryUpdateSerializer": {
        "name": column(Entry, "name"),
        "seed": column(Entry, "seed"),
        "rating": column(Entry, "rating"),
    },
    "tournaments.api.serializers.ClockSerializer": {"minutes": column(Game, "added_minutes")},
    "tournaments.api.serializers.PairingForfeitSerializer": {"reason": column(Pairing, "reason")},
    "tournaments.api.serializers.RollbackSerializer": {"reason": column(Pairing, "reason")},
    "tournaments.api.serializers.SwapTablesSerializer": {
        "first": column(Pairing, "id"),
        "second": column(Pairing, "id"),
    },
    "tournaments.api.serializers.SwapTeamsSerializer": {
        "first": column(Entry, "id"),
        "second": column(Entry, "id"),
    },
    "tournaments.api.serializers.ReasonSerializer": {"reason": column(Pairing, "reason")},
    "tournaments.api.serializers.MinutesSerializer": {"minutes": column(Game, "added_minutes")},
    "tournaments.api.serializers.AdjustSerializer": {
        "home_points": column(Pairing, "home_points"),
        "away_points": column(Pairing, "away_points"),
        "reason": column(Pairing, "reason"),
    },
    "tournaments.api.serializers.ByePointsSerializer": {
        "points_for": column(Pairing, "home_points"),
        "points_against": column(Pairing, "away_points"),
    },
    "tournaments.api.serializers.SubstituteSerializer": {
        "substitute_name": column(Player, "name"),
        "reason": column(Substitution, "reason"),
        "replaced": column(Player, "id"),
        "substitute": column(Player, "id"),
    },
    "tournaments.forms.EventForm": EVENT_SETTINGS,
    "tournaments.forms.SeasonForm": {"name": column(Season, "name")},
    "tournaments.forms.TeamEntryForm": {
        "player_one": column(Player, "name"),
        "player_two": column(Player, "name"),
        "name": column(Entry, "name"),
        "seed": column(Entry, "seed"),
        "rating": column(Entry, "rating"),
    },
    "tournaments.forms.PlayerEntryForm": {
        "player": column(Player, "name"),
        "seed": column(Entry, "seed"),
        "rating": column(Entry, "rating"),
    },
    "tournaments.forms.ByePointsForm": {
        "points_for": column(Pairing, "home_points"),
        "points_against": column(Pairing, "away_points"),
    },
    "tournaments.forms.ForfeitForm": {"reason": column(Pairing, "reason")},
    "tournaments.forms.RollbackForm": {"reason": column(Pairing, "reason")},
    "tournaments.forms.SwapForm": {"first": column(Pairing, "id"), "second": column(Pairing, "id")},
    "tournaments.forms.MinutesForm": {"minutes": column(Game, "added_minutes")},
    "tournaments.forms.AdjustForm": {
        "home_points": column(Pairing, "home_points"),
        "away_points": column(Pairing, "away_points"),
        "reason": column(Pairing, "reason"),
    },
    "tournaments.forms.SubstituteForm": {
        "substitute_name": column(Player, "name"),
        "reason": column(Substitution, "reason"),
        "replaced": column(Player, "id"),
    },
    "tournaments.api.rounds.ForfeitUndoSerializer": {"reason": column(GameChange, "reason")},
    "tournaments.api.serializers.EventCreateSerializer": {
        "preset": column(Event, "preset"),
        "capacity": column(Event, "capacity"),
    },
    "kaiser_club.members.forms.MemberAddForm": {
        "name": column(Player, "name"),
        "email": column(Player, "email"),
    },
}

# Text fields without a max_length, each with the limit that applies instead.
BIG_TEXT = {
    "tournaments.api.serializers.CsvImportSerializer.csv": "CSV: rows and fields checked",
    "tournaments.forms.CsvForm.csv": "CSV: rows and fields checked by the import",
    "kaiser_club.members.forms.CsvUploadForm.text": "CSV: rows and fields checked",
    "kaiser_club.members.forms.CsvConfirmForm.text": "CSV: rows and fields checked",
    "kaiser_club.members.forms.InvitationSignUpForm.password1": "hashed, never stored as typed",
    "kaiser_club.members.forms.InvitationSignUpForm.password2": "hashed, never stored as typed",
}

# Text and number fields of inputs that are not stored as given, and what bounds them instead.
NOT_STORED = {
    # A sign-up is read a little longer than its columns so that the registrations service,
    # not a form, says which name or address is too long, in a sentence naming it.
    "tournaments.api.registrations.PersonSerializer.name": "registrations service: NAME_MAX",
    "tournaments.api.registrations.PersonSerializer.email": "registrations service: EMAIL_MAX",
    "tournaments.api.registrations.SignUpSerializer.name": "registrations service: name limit",
    "tournaments.public.registration_views.SignUpForm.player_1_name": "registrations service",
    "tournaments.public.registration_views.SignUpForm.player_1_email": "registrations service",
    "tournaments.public.registration_views.SignUpForm.player_2_name": "registrations service",
    "tournaments.public.registration_views.SignUpForm.player_2_email": "registrations service",
    "tournaments.public.registration_views.SignUpForm.name": "registrations service",
    "tournaments.public.registration_views.SignUpForm.website": "a trap for robots, never kept",
    "tournaments.public.registration_views.SignUpForm.stamp": "signed time, checked, never kept",
    "tournaments.api.registrations.ReasonSerializer.reason": "clean_within(300) in the service",
    "tournaments.api.registrations.PlaceSerializer.place": "a place in the list, clamped to it",
    "kaiser_club.members.forms.InvitationSignUpForm.username": "Django's User form, its model's",
}

# Classes that only present data (their fields are never read from a request).
OUTPUTS = {
    "kaiser_club.api.members.MemberSerializer",
    "kaiser_club.api.members.MemberAdminSerializer",
    "kaiser_club.api.members.MemberListSerializer",
    "kaiser_club.api.views.ClubSerializer",
    "scoring.api.serializers.PlayerRefSerializer",
    "scoring.api.serializers.HandSerializer",
    "scoring.api.serializers.GameSerializer",
    "scoring.api.serializers.GameDetailSerializer",
    "scoring.api.serializers.GameResultSerializer",
    "scoring.api.serializers.GameChangeSerializer",
    "scoring.api.serializers.RecordedSerializer",
    "scoring.api.serializers.PresetSerializer",
    "scoring.api.players.RecordSerializer",
    "scoring.api.players.PartnershipSerializer",
    "scoring.api.players.RatingStepSerializer",
    "scoring.api.players.PlayerStatsSerializer",
    "tournaments.api.serializers.EventSerializer",
    "tournaments.api.serializers.PlayerRefSerializer",
    "tournaments.api.serializers.EntrySerializer",
    "tournaments.api.serializers.JobSerializer",
    "tournaments.api.serializers.RoundSerializer",
    "tournaments.api.serializers.EntryRefSerializer",
    "tournaments.api.serializers.PairingSerializer",
    "tournaments.api.serializers.RoundDetailSerializer",
    "tournaments.api.serializers.TableSerializer",
    "tournaments.api.serializers.StandingSerializer",
    "tournaments.api.registrations.StateSerializer",
    "tournaments.api.registrations.RegistrantSerializer",
    "tournaments.api.registrations.RegistrationSerializer",
}


def _project_classes() -> dict[str, type]:
    found: dict[str, type] = {}
    for app in APPS:
        package = importlib.import_module(app)
        for info in pkgutil.walk_packages(package.__path__, prefix=f"{app}."):
            if any(part in info.name for part in (".migrations", ".management", ".settings")):
                continue
            module = importlib.import_module(info.name)
            for name, value in vars(module).items():
                if not inspect.isclass(value) or value.__module__ != module.__name__:
                    continue
                if issubclass(value, serializers.BaseSerializer | forms.BaseForm):
                    found[f"{module.__name__}.{name}"] = value
    return found


CLASSES = _project_classes()
INPUTS = {name: cls for name, cls in CLASSES.items() if name not in OUTPUTS}


def _fields(cls: type) -> dict[str, Any]:
    if issubclass(cls, forms.BaseForm):
        return dict(cls.base_fields)  # type: ignore[attr-defined]
    instance: Any = cls()
    return {n: f for n, f in instance.fields.items() if not getattr(f, "read_only", False)}


def _model_of(cls: type) -> Any:
    """The model a model serializer or a model form writes, if it is one."""
    meta = getattr(cls, "Meta", None) or getattr(cls, "_meta", None)
    return getattr(meta, "model", None)


def _stored(name: str, cls: type) -> dict[str, Field[Any, Any]]:
    """Where each field is stored: the columns of its model's fields of the same name, then
    the listed mappings of its bases, then its own (a subclass writes what its bases write)."""
    found: dict[str, Field[Any, Any]] = {}
    model = _model_of(cls)
    if model is not None:
        columns = {f.name: f for f in model._meta.concrete_fields}
        found.update({n: columns[n] for n in _fields(cls) if n in columns})
    for klass in reversed(cls.__mro__):
        found.update(STORED.get(f"{klass.__module__}.{klass.__name__}", {}))
    return found


def _column_range(field: Field[Any, Any]) -> tuple[float, float]:
    if isinstance(field, FloatField):
        return (float("-inf"), float("inf"))
    low, high = connection.ops.integer_field_range(field.get_internal_type())
    return (float("-inf") if low is None else low, float("inf") if high is None else high)


def test_every_serializer_and_form_is_classified() -> None:
    stale = sorted(OUTPUTS - set(CLASSES))
    assert not stale, f"listed as outputs but gone: {stale}"
    assert len(INPUTS) > 30


@pytest.mark.parametrize("name", sorted(INPUTS))
def test_every_number_is_bounded_and_every_text_has_a_length(name: str) -> None:
    problems = []
    numbers = (
        serializers.IntegerField,
        serializers.FloatField,
        forms.IntegerField,
        forms.FloatField,
    )
    for field_name, field in _fields(INPUTS[name]).items():
        where = f"{name}.{field_name}"
        unbounded_number = isinstance(field, numbers) and (
            field.min_value is None or field.max_value is None
        )
        if unbounded_number:
            problems.append(f"{where}: a number with no lower or upper bound")
        text = isinstance(field, serializers.CharField | forms.CharField)
        if text and getattr(field, "max_length", None) is None and where not in BIG_TEXT:
            problems.append(f"{where}: text with no max_length")
    assert not problems, "\n".join(problems)


TEXT_AND_NUMBERS = (
    serializers.CharField,
    serializers.IntegerField,
    serializers.FloatField,
    serializers.DecimalField,
    forms.CharField,
    forms.IntegerField,
    forms.FloatField,
    forms.DecimalField,
)


@pytest.mark.parametrize("name", sorted(INPUTS))
def test_every_text_and_number_field_is_stored_or_says_why(name: str) -> None:
    cls = INPUTS[name]
    stored = _stored(name, cls)
    loose = [
        field_name
        for field_name, field in _fields(cls).items()
        if isinstance(field, TEXT_AND_NUMBERS)
        and field_name not in stored
        and f"{name}.{field_name}" not in BIG_TEXT
        and f"{name}.{field_name}" not in NOT_STORED
    ]
    assert not loose, f"{name}: say where {loose} are stored (STORED) or why not (NOT_STORED)"


def test_the_lists_name_only_fields_that_exist() -> None:
    stale = [
        f"{name}.{field}"
        for name, mapping in STORED.items()
        for field in mapping
        if name not in CLASSES or field not in _fields(CLASSES[name])
    ]
    stale += [
        where
        for where in {**NOT_STORED, **BIG_TEXT}
        if where.rsplit(".", 1)[0] not in CLASSES
        or where.rsplit(".", 1)[1] not in _fields(CLASSES[where.rsplit(".", 1)[0]])
    ]
    assert not stale, stale


@pytest.mark.parametrize("name", sorted(n for n, c in INPUTS.items() if _stored(n, c)))
def test_a_stored_field_fits_its_column(name: str) -> None:
    fields = _fields(INPUTS[name])
    problems = []
    for field_name, column in _stored(name, INPUTS[name]).items():
        field = fields.get(field_name)
        assert field is not None, f"{name} has no field {field_name}"
        if isinstance(column, CharField):
            if (field.max_length or 10**9) > (column.max_length or 0):
                problems.append(
                    f"{field_name}: max_length {field.max_length} > column {column.max_length}"
                )
        elif isinstance(column, IntegerField | FloatField):
            low, high = _column_range(column)
            if field.min_value is None or field.min_value < low:
                problems.append(f"{field_name}: min_value {field.min_value} < column {low}")
            if field.max_value is None or field.max_value > high:
                problems.append(f"{field_name}: max_value {field.max_value} > column {high}")
    assert not problems, f"{name}: " + "; ".join(problems)
