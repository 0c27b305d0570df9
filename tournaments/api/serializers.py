"""Shapes of the events API. Serializers check types and shapes; services judge the rest."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from kaiser_club.api.visible import SeenRelatedField, club_id_field, player_id_field
from kaiser_club.models import Player
from kaiser_club.request_limits import LARGEST_ID

from .. import limits
from ..choices import EventKind, Format, KnockoutKind, RegistrationMode, Seeding, SlotSide, Tiebreak
from ..models import Entry, Event, GenerationJob, Pairing, Round, Season, Table
from ..services.tables import display_code, table_path


def seasons_seen(club_ids: Any) -> QuerySet[Season]:
    return Season.objects.filter(club_id__in=club_ids)


def season_id_field(**kwargs: Any) -> SeenRelatedField:
    """A season of the user's clubs, by id; another club's is answered as one that does not
    exist (``kaiser_club.api.visible``)."""
    return SeenRelatedField(
        seen=seasons_seen,
        queryset=Season.objects.all(),
        error_messages={"does_not_exist": _("There is no season {pk_value} that you can see.")},
        **kwargs,
    )


class SeasonSerializer(serializers.ModelSerializer[Season]):
    club = club_id_field()
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=Tiebreak.choices), required=False
    )

    class Meta:
        model = Season
        fields = ["id", "club", "name", "starts_on", "ends_on", "tiebreaks"]


class EventSerializer(serializers.ModelSerializer[Event]):
    time_limit = serializers.IntegerField(read_only=True, allow_null=True)

    class Meta:
        model = Event
        fields = [
            "id",
            "club",
            "season",
            "kind",
            "name",
            "date",
            "venue",
            "status",
            "preset",
            "rules",
            "format",
            "minutes_per_game",
            "time_limit",
            "rounds",
            "tiebreaks",
            "seeding",
            "forfeit_winner_score",
            "forfeit_loser_score",
            "check_in_required",
            "third_place",
            "grand_final_reset",
            "pool_count",
            "pool_advance",
            "knockout_size",
            "knockout_kind",
            "verification",
            "public_pages",
            "registration",
            "capacity",
            "registration_closes_at",
        ]
        read_only_fields = fields


class EventSettingsSerializer(serializers.Serializer[dict[str, Any]]):
    """Settings an organiser may give when creating an event, or change later."""

    name = serializers.CharField(max_length=160, required=False)
    date = serializers.DateField(required=False)
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True)
    season = season_id_field(required=False, allow_null=True)
    format = serializers.ChoiceField(choices=Format.choices, required=False)
    minutes_per_game = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=limits.MINUTES_PER_GAME[0],
        max_value=limits.MINUTES_PER_GAME[1],
    )
    rounds = serializers.IntegerField(
        required=False, allow_null=True, min_value=limits.ROUNDS[0], max_value=limits.ROUNDS[1]
    )
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=Tiebreak.choices), required=False
    )
    seeding = serializers.ChoiceField(choices=Seeding.choices, required=False)
    forfeit_winner_score = serializers.IntegerField(
        required=False, min_value=limits.FORFEIT_SCORE[0], max_value=limits.FORFEIT_SCORE[1]
    )
    forfeit_loser_score = serializers.IntegerField(
        required=False, min_value=limits.FORFEIT_SCORE[0], max_value=limits.FORFEIT_SCORE[1]
    )
    check_in_required = serializers.BooleanField(required=False)
    third_place = serializers.BooleanField(required=False)
    grand_final_reset = serializers.BooleanField(required=False)
    pool_count = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=limits.POOL_COUNT[0],
        max_value=limits.POOL_COUNT[1],
    )
    pool_advance = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=limits.POOL_ADVANCE[0],
        max_value=limits.POOL_ADVANCE[1],
    )
    knockout_size = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=limits.KNOCKOUT_SIZE[0],
        max_value=limits.KNOCKOUT_SIZE[1],
        help_text="Swiss or round robin, then a knockout: the teams that go on to it.",
    )
    knockout_kind = serializers.ChoiceField(
        choices=KnockoutKind.choices,
        required=False,
        help_text="The knockout after a staged event's first stage.",
    )
    verification = serializers.BooleanField(required=False)
    public_pages = serializers.BooleanField(required=False)
    registration = serializers.ChoiceField(choices=RegistrationMode.choices, required=False)
    capacity = serializers.IntegerField(
        required=False, allow_null=True, min_value=limits.CAPACITY[0], max_value=limits.CAPACITY[1]
    )
    registration_closes_at = serializers.DateTimeField(required=False, allow_null=True)


class EventCreateSerializer(EventSettingsSerializer):
    club = club_id_field()
    kind = serializers.ChoiceField(choices=EventKind.choices, default=EventKind.TOURNAMENT)
    name = serializers.CharField(max_length=160)
    date = serializers.DateField()
    preset = serializers.CharField(max_length=40, required=False, allow_blank=True)
    rule_changes = serializers.DictField(required=False)


class RuleChangesSerializer(serializers.Serializer[dict[str, Any]]):
    changes = serializers.DictField()


class PlayerRefSerializer(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ["id", "name"]


class EntrySerializer(serializers.ModelSerializer[Entry]):
    players = serializers.SerializerMethodField()

    class Meta:
        model = Entry
        fields = [
            "id",
            "name",
            "team",
            "player",
            "players",
            "club",
            "seed",
            "rating",
            "pool",
            "status",
            "late",
            "checked_in_at",
            "withdrawn_at",
        ]
        read_only_fields = fields

    def get_players(self, entry: Entry) -> list[dict[str, Any]]:
        if entry.team is not None:
            people = [entry.team.player_one, entry.team.player_two]
        else:
            people = [entry.player] if entry.player else []
        return [{"id": p.id, "name": p.name} for p in people if p]


class EntryCreateSerializer(serializers.Serializer[dict[str, Any]]):
    """A team of two players (ids), or a single player for a progressive event."""

    # Players the event's organiser's clubs know: another club's is answered as an unknown id.
    player_one = player_id_field(required=False)
    player_two = player_id_field(required=False)
    player = player_id_field(required=False)
    name = serializers.CharField(max_length=160, required=False, allow_blank=True)
    seed = serializers.IntegerField(
        required=False, allow_null=True, min_value=limits.SEED[0], max_value=limits.SEED[1]
    )
    rating = serializers.FloatField(
        required=False, allow_null=True, min_value=limits.RATING[0], max_value=limits.RATING[1]
    )
    # The entry's home club, by id: one of the user's clubs (an id names nothing else here; an
    # id of a club the user is not in was taken, and its name then came out in the export).
    club = club_id_field(required=False, allow_null=True)


class EntryUpdateSerializer(serializers.Serializer[dict[str, Any]]):
    """What changes (a field left out stays): players by id as at registration, until a game
    of the entry has been played."""

    player_one = player_id_field(required=False)
    player_two = player_id_field(required=False)
    player = player_id_field(required=False)
    name = serializers.CharField(max_length=160, required=False, allow_blank=True)
    seed = serializers.IntegerField(
        required=False, allow_null=True, min_value=limits.SEED[0], max_value=limits.SEED[1]
    )
    rating = serializers.FloatField(
        required=False, allow_null=True, min_value=limits.RATING[0], max_value=limits.RATING[1]
    )


class CheckInSerializer(serializers.Serializer[dict[str, Any]]):
    checked_in = serializers.BooleanField(default=True)


class ReasonSerializer(serializers.Serializer[dict[str, Any]]):
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True)


class CsvImportSerializer(serializers.Serializer[dict[str, Any]]):
    csv = serializers.CharField(trim_whitespace=False)
    dry_run = serializers.BooleanField(
        default=False, help_text="Check every row and answer with the preview; write nothing."
    )


class JobSerializer(serializers.ModelSerializer[GenerationJob]):
    # In the reader's language (the job keeps a sentence, not the worker's words).
    summary = serializers.CharField(source="summary_text", read_only=True)
    error = serializers.CharField(source="error_text", read_only=True)

    class Meta:
        model = GenerationJob
        fields = [
            "id",
            "event",
            "status",
            "round_number",
            "summary",
            "error",
            "created_at",
            "started_at",
            "finished_at",
        ]
        read_only_fields = fields


class RoundSerializer(serializers.ModelSerializer[Round]):
    games = serializers.IntegerField(read_only=True)
    playing = serializers.IntegerField(read_only=True)
    byes = serializers.IntegerField(read_only=True)

    class Meta:
        model = Round
        fields = ["id", "number", "label", "status", "started_at", "games", "playing", "byes"]
        read_only_fields = fields


class EntryRefSerializer(serializers.ModelSerializer[Entry]):
    class Meta:
        model = Entry
        fields = ["id", "name", "seed", "status"]


class PairingSerializer(serializers.ModelSerializer[Pairing]):
    home = EntryRefSerializer(read_only=True)
    away = EntryRefSerializer(read_only=True)
    table = serializers.IntegerField(source="table.number", read_only=True, allow_null=True)
    round = serializers.IntegerField(source="round.number", read_only=True)
    game = serializers.SerializerMethodField()
    # Declared: a read-only model field loses allow_blank, and the schema then refused the ""
    # of an undecided pairing (found by schemathesis).
    winner_side = serializers.ChoiceField(
        choices=SlotSide.choices, allow_blank=True, read_only=True
    )

    class Meta:
        model = Pairing
        fields = [
            "id",
            "round",
            "table",
            "pool",
            "match_number",
            "code",
            "stage",
            "conditional",
            "cancelled",
            "home",
            "away",
            "first_dealer_home",
            "game",
            "result",
            "winner_side",
            "home_points",
            "away_points",
            "reason",
            "played_late",
        ]
        read_only_fields = fields

    def get_game(self, pairing: Pairing) -> dict[str, Any] | None:
        game = pairing.game
        if game is None:
            return None
        return {
            "id": game.id,
            "status": game.status,
            "ns_score": game.ns_score,
            "ew_score": game.ew_score,
            "hand_count": game.hand_count,
            "winner": game.winner,
            "end_reason": game.end_reason,
            "started_at": game.started_at,
            "deadline": game.deadline,
            "paused": game.paused_at is not None,
            "time_called_at": game.time_called_at,
        }


class RoundDetailSerializer(serializers.ModelSerializer[Round]):
    pairings = PairingSerializer(many=True, read_only=True, source="prefetched")

    class Meta:
        model = Round
        fields = ["id", "number", "label", "status", "started_at", "pairings"]
        read_only_fields = fields


class MinutesSerializer(serializers.Serializer[dict[str, Any]]):
    minutes = serializers.IntegerField(min_value=-60, max_value=120)


class SwapTeamsSerializer(serializers.Serializer[dict[str, Any]]):
    first = serializers.IntegerField(help_text="An entry id.", min_value=1, max_value=LARGEST_ID)
    second = serializers.IntegerField(help_text="An entry id.", min_value=1, max_value=LARGEST_ID)


class SwapTablesSerializer(serializers.Serializer[dict[str, Any]]):
    first = serializers.IntegerField(help_text="A pairing id.", min_value=1, max_value=LARGEST_ID)
    second = serializers.IntegerField(help_text="A pairing id.", min_value=1, max_value=LARGEST_ID)


class PairingForfeitSerializer(serializers.Serializer[dict[str, Any]]):
    forfeiting = serializers.ChoiceField(choices=SlotSide.choices)
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True)


class AdjustSerializer(serializers.Serializer[dict[str, Any]]):
    winner = serializers.ChoiceField(choices=SlotSide.choices)
    home_points = serializers.IntegerField(min_value=-200, max_value=200)
    away_points = serializers.IntegerField(min_value=-200, max_value=200)
    reason = serializers.CharField(max_length=300)
    rollback = serializers.BooleanField(default=False)


class ByePointsSerializer(serializers.Serializer[dict[str, Any]]):
    points_for = serializers.IntegerField(min_value=-200, max_value=200)
    points_against = serializers.IntegerField(min_value=-200, max_value=200)


class LateSerializer(serializers.Serializer[dict[str, Any]]):
    late = serializers.BooleanField(default=True)


class SubstituteSerializer(serializers.Serializer[dict[str, Any]]):
    replaced = serializers.IntegerField(
        help_text="The id of the player who sits out this game.", min_value=1, max_value=LARGEST_ID
    )
    substitute = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=LARGEST_ID,
        help_text="The id of a player the event's club knows (a member or a known visitor).",
    )
    substitute_name = serializers.CharField(
        max_length=120,
        required=False,
        allow_blank=True,
        help_text="Or a name: the club's known player of that name, else a new visitor. When "
        "more than one record could be that person the answer is 409 (code choose_player) with "
        "the choices: send one's id as substitute, or substitute_new.",
    )
    substitute_new = serializers.BooleanField(
        default=False,
        help_text="With substitute_name: a new visitor record, another person than the records "
        "of that name.",
    )
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True)


class ClockSerializer(serializers.Serializer[dict[str, Any]]):
    action = serializers.ChoiceField(choices=["start", "pause", "resume", "add"])
    minutes = serializers.IntegerField(required=False, default=0, min_value=-60, max_value=120)


class RollbackSerializer(serializers.Serializer[dict[str, Any]]):
    confirm = serializers.BooleanField()
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True)


class TableSerializer(serializers.ModelSerializer[Table]):
    code = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()
    current = serializers.SerializerMethodField()

    class Meta:
        model = Table
        fields = ["id", "number", "code", "code_issued_at", "url", "current"]
        read_only_fields = fields

    def _show_codes(self) -> bool:
        return bool(self.context.get("show_codes"))

    def get_code(self, table: Table) -> str | None:
        return display_code(table.code) if table.code and self._show_codes() else None

    def get_url(self, table: Table) -> str | None:
        if not table.code or not self._show_codes():
            return None
        request = self.context.get("request")
        path = table_path(table.code)
        return request.build_absolute_uri(path) if request else path

    def get_current(self, table: Table) -> int | None:
        current = getattr(table, "current", None)
        return current[0].id if current else None


class StandingSerializer(serializers.Serializer[Any]):
    """One line of an event's placings, in order: ``place`` is shared by the rows of one
    band (``place`` to ``place_to``, ``tied``), printed ``place_text`` ("5="); a team still
    playing in a bracket has no place yet (null, "")."""

    place = serializers.SerializerMethodField()
    place_to = serializers.SerializerMethodField()
    tied = serializers.BooleanField()
    place_text = serializers.CharField()
    id = serializers.IntegerField()
    name = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)
    withdrawn = serializers.BooleanField()
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    points_for = serializers.IntegerField()
    points_against = serializers.IntegerField()
    point_difference = serializers.IntegerField()
    buchholz = serializers.IntegerField()
    pool = serializers.IntegerField(allow_null=True)

    def get_place(self, row: Any) -> int | None:
        return row.place or None

    def get_place_to(self, row: Any) -> int | None:
        return row.placing[1] if row.placing else None
