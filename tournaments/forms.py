"""Forms of the organiser pages: they check shapes; services judge the rest."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from kaiser_club.errors import KaiserError
from kaiser_club.people import NEW, parse_choice
from kaiser_club.request_limits import LARGEST_ID
from scoring.rules import PRESETS

from . import limits
from .choices import (
    DEFAULT_TIEBREAKS,
    EventKind,
    Format,
    KnockoutKind,
    RegistrationMode,
    Seeding,
    SlotSide,
)
from .models import Season
from .rules_form import RulesForm, preset_title
from .services.csv_import import MAX_BYTES
from .tiebreak_field import TiebreakOrderField

__all__ = ["RulesForm"]  # the rule-set form has its own module; pages import it from here

PRESET_CHOICES = [("", _("Default (tournament, or the club's own)"))] + [
    (name, preset_title(name, rules.title)) for name, rules in PRESETS.items()
]


class DatePicker(forms.DateInput):
    """The browser's date picker. Its value is always ISO (2026-11-28), whatever the page's
    language: a French page would otherwise fill it with 28/11/2026, which a date input
    cannot show, and the browser would refuse to submit the empty box."""

    input_type = "date"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs=attrs, format="%Y-%m-%d")


class EventForm(forms.Form):
    club = forms.TypedChoiceField(coerce=int, label=_("Club"))
    kind = forms.ChoiceField(
        choices=EventKind.choices, initial=EventKind.TOURNAMENT, label=_("Kind")
    )
    name = forms.CharField(max_length=160, label=_("Name"))
    date = forms.DateField(label=_("Date"), widget=DatePicker())
    venue = forms.CharField(max_length=200, required=False, label=_("Venue"))
    season = forms.ModelChoiceField(
        queryset=Season.objects.none(), required=False, label=_("Season")
    )
    format = forms.ChoiceField(choices=Format.choices, initial=Format.SWISS, label=_("Format"))
    preset = forms.ChoiceField(choices=PRESET_CHOICES, required=False, label=_("Rule set"))
    rounds = forms.IntegerField(
        min_value=limits.ROUNDS[0],
        max_value=limits.ROUNDS[1],
        required=False,
        label=_("Rounds"),
        help_text=_("Rounds to play (Swiss, progressive)."),
    )
    minutes_per_game = forms.IntegerField(
        min_value=limits.MINUTES_PER_GAME[0],
        max_value=limits.MINUTES_PER_GAME[1],
        required=False,
        label=_("Minutes per game"),
        help_text=_("Empty: the rule set's."),
    )
    seeding = forms.ChoiceField(choices=Seeding.choices, initial=Seeding.MANUAL, label=_("Seeding"))
    tiebreaks = TiebreakOrderField(
        label=_("Tie-break order"),
        initial=list(DEFAULT_TIEBREAKS),
        help_text=_("Number the tie-breaks in the order they count: 1 first; empty: not used."),
    )
    forfeit_winner_score = forms.IntegerField(
        initial=52,
        min_value=limits.FORFEIT_SCORE[0],
        max_value=limits.FORFEIT_SCORE[1],
        label=_("Forfeit: the winners' score"),
    )
    forfeit_loser_score = forms.IntegerField(
        initial=0,
        min_value=limits.FORFEIT_SCORE[0],
        max_value=limits.FORFEIT_SCORE[1],
        label=_("Forfeit: the losers' score"),
    )
    check_in_required = forms.BooleanField(
        required=False, initial=True, label=_("Check-in before the first round")
    )
    third_place = forms.BooleanField(required=False, label=_("A game for third place"))
    grand_final_reset = forms.BooleanField(
        required=False, initial=True, label=_("A reset game if the grand final's underdog wins")
    )
    pool_count = forms.IntegerField(
        min_value=limits.POOL_COUNT[0],
        max_value=limits.POOL_COUNT[1],
        required=False,
        label=_("Pools"),
    )
    pool_advance = forms.IntegerField(
        min_value=limits.POOL_ADVANCE[0],
        max_value=limits.POOL_ADVANCE[1],
        required=False,
        label=_("Teams of each pool that go on"),
    )
    knockout_size = forms.IntegerField(
        min_value=limits.KNOCKOUT_SIZE[0],
        max_value=limits.KNOCKOUT_SIZE[1],
        required=False,
        label=_("Teams that go on to the knockout"),
        help_text=_(
            "Swiss or round robin, then a knockout: the first teams of its standings, seeded "
            "1 v last. Not a power of two: the top seeds get byes."
        ),
    )
    knockout_kind = forms.TypedChoiceField(
        choices=KnockoutKind.choices,
        required=False,
        empty_value=KnockoutKind.SINGLE.value,
        initial=KnockoutKind.SINGLE,
        label=_("Knockout"),
        help_text=_("The bracket after the pools, Swiss or round robin."),
    )
    verification = forms.BooleanField(
        required=False, initial=True, label=_("The other partnership confirms each hand")
    )
    public_pages = forms.BooleanField(
        required=False, initial=True, label=_("Public pages (standings, bracket, live scores)")
    )
    registration = forms.TypedChoiceField(  # left out: closed, as before sign-ups existed
        choices=RegistrationMode.choices,
        required=False,
        empty_value=RegistrationMode.CLOSED.value,
        initial=RegistrationMode.CLOSED,
        label=_("Sign-ups by players"),
        help_text=_("Open: players sign up on the event's public page /e/…/register/."),
    )
    capacity = forms.IntegerField(
        min_value=limits.CAPACITY[0],
        max_value=limits.CAPACITY[1],
        required=False,
        label=_("Places"),
        help_text=_("Empty: no limit. Past it, sign-ups wait on a waiting list."),
    )
    registration_closes_at = forms.DateTimeField(
        required=False,
        label=_("Sign-ups close at"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"],
    )

    def __init__(self, *args: Any, clubs: Any = (), seasons: Any = None, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.fields["club"].choices = [(c.id, c.name) for c in clubs]  # type: ignore[attr-defined]
        if seasons is not None:
            self.fields["season"].queryset = seasons  # type: ignore[attr-defined]

    def settings(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        for key in ("club", "kind", "name", "date", "preset", "format"):
            data.pop(key, None)
        return data


class EventSettingsForm(EventForm):
    """The same settings, changed later (club, kind and preset stay)."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        for name in ("club", "kind", "preset"):
            del self.fields[name]

    def settings(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        data.pop("club", None)
        return data


class SeasonForm(forms.Form):
    club = forms.TypedChoiceField(coerce=int, label=_("Club"))
    name = forms.CharField(max_length=120, label=_("Name"))
    starts_on = forms.DateField(required=False, label=_("Starts on"), widget=DatePicker())
    ends_on = forms.DateField(required=False, label=_("Ends on"), widget=DatePicker())

    def __init__(self, *args: Any, clubs: Any = (), **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.fields["club"].choices = [(c.id, c.name) for c in clubs]  # type: ignore[attr-defined]


class TeamEntryForm(forms.Form):
    """A team typed in: players by name (found in the club, or new)."""

    player_one = forms.CharField(max_length=120, label=_("First player"))
    player_two = forms.CharField(max_length=120, label=_("Second player"))
    name = forms.CharField(max_length=160, required=False, label=_("Team name"))
    seed = forms.IntegerField(
        min_value=limits.SEED[0], max_value=limits.SEED[1], required=False, label=_("Seed")
    )
    rating = forms.FloatField(
        min_value=limits.RATING[0], max_value=limits.RATING[1], required=False, label=_("Rating")
    )


class PlayerEntryForm(forms.Form):
    player = forms.CharField(max_length=120, label=_("Player"))
    seed = forms.IntegerField(
        min_value=limits.SEED[0], max_value=limits.SEED[1], required=False, label=_("Seed")
    )
    rating = forms.FloatField(
        min_value=limits.RATING[0], max_value=limits.RATING[1], required=False, label=_("Rating")
    )


def entry_edit_form(
    *,
    individual: bool,
    initial: dict[str, Any],
    seed_fixed: bool,
    players_fixed: bool,
    data: Any = None,
) -> forms.Form:
    """The entry form of registration, to change an entry: prefilled, what can no longer
    change shown but not taken (a disabled field keeps its value)."""
    form = (PlayerEntryForm if individual else TeamEntryForm)(data, initial=initial)
    if seed_fixed:
        form.fields["seed"].disabled = True
        form.fields["seed"].help_text = _("Fixed once the first round exists.")
    if players_fixed:
        for name in ("player", "player_one", "player_two"):
            if name in form.fields:
                form.fields[name].disabled = True
                form.fields[name].help_text = _(
                    "A game has been played: record a substitution on its page instead."
                )
    return form


class CsvForm(forms.Form):
    csv = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 8}),
        required=False,
        label=_("CSV"),
    )
    file = forms.FileField(required=False, label=_("File"))
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def text(self) -> str:
        """The file's text (read no further than one byte past what an import takes, which
        ``csv_import.check_size`` then refuses), or the pasted rows."""
        upload = self.cleaned_data.get("file")
        if upload:
            return upload.read(MAX_BYTES + 1).decode("utf-8-sig", errors="replace")
        return self.cleaned_data.get("csv") or ""


class MinutesForm(forms.Form):
    minutes = forms.IntegerField(min_value=-60, max_value=120, label=_("Minutes"))


class SwapForm(forms.Form):
    first = forms.IntegerField(min_value=1, max_value=LARGEST_ID)
    second = forms.IntegerField(min_value=1, max_value=LARGEST_ID)


def side_choices(names: tuple[str, str] | None) -> list[tuple[str, Any]]:
    """The two sides of a game by their names ("Les As (North–South)"), never Home/Away."""
    if names is None:
        return list(SlotSide.choices)
    return [
        (SlotSide.HOME.value, _("%(name)s (North–South)") % {"name": names[0]}),
        (SlotSide.AWAY.value, _("%(name)s (East–West)") % {"name": names[1]}),
    ]


class ForfeitForm(forms.Form):
    forfeiting = forms.ChoiceField(choices=SlotSide.choices, label=_("Forfeiting"))
    reason = forms.CharField(max_length=300, required=False, label=_("Reason"))

    def __init__(self, *args: Any, names: tuple[str, str] | None = None, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.fields["forfeiting"].choices = side_choices(names)  # type: ignore[attr-defined]


class AdjustForm(forms.Form):
    winner = forms.ChoiceField(choices=SlotSide.choices, label=_("Winner"))
    home_points = forms.IntegerField(
        min_value=-200, max_value=200, label=_("Points of the home team (North–South)")
    )
    away_points = forms.IntegerField(
        min_value=-200, max_value=200, label=_("Points of the away team (East–West)")
    )
    reason = forms.CharField(max_length=300, label=_("Reason"))
    rollback = forms.BooleanField(required=False, label=_("Roll back the later games"))

    def __init__(self, *args: Any, names: tuple[str, str] | None = None, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.fields["winner"].choices = side_choices(names)  # type: ignore[attr-defined]
        if names is not None:
            self.fields["home_points"].label = _("Points of %(name)s") % {"name": names[0]}
            self.fields["away_points"].label = _("Points of %(name)s") % {"name": names[1]}


class ByePointsForm(forms.Form):
    points_for = forms.IntegerField(min_value=-200, max_value=200, label=_("Points for"))
    points_against = forms.IntegerField(min_value=-200, max_value=200, label=_("Points against"))


class SubstituteForm(forms.Form):
    # A player's id, offered among the four seated; the service says when it is not one of them.
    replaced = forms.IntegerField(
        label=_("Replaced"), widget=forms.Select, min_value=1, max_value=LARGEST_ID
    )
    substitute_name = forms.CharField(
        max_length=120,
        label=_("Substitute"),
        help_text=_("A player's name: one the club knows, or a new visitor."),
    )
    reason = forms.CharField(max_length=300, required=False, label=_("Reason"))
    # When the name is more than one record's, the page asks which with radio buttons, as
    # registration does (templates/_choose_record.html): a record's id, or new.
    CHOICE = "substitute_record"

    def __init__(self, *args: Any, seated: Any = (), **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.fields["replaced"].widget.choices = [(p.id, p.name) for p in seated]  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        """The record chosen becomes the service's arguments: an id (the substitute), or new."""
        data = super().clean() or {}
        try:
            choice = parse_choice(self.data.get(self.CHOICE))
        except KaiserError as exc:
            raise forms.ValidationError(exc.message) from None
        if isinstance(choice, int):
            data["substitute"], data["substitute_name"] = choice, ""
        elif choice == NEW:
            data["substitute_new"] = True
        return data


class RollbackForm(forms.Form):
    reason = forms.CharField(max_length=300, required=False, label=_("Reason"))
