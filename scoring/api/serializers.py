"""Shapes of the games API. Serializers check types and shapes only; the rules engine (through
the services) judges every Kaiser rule."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from kaiser_club.api.made_once import MadeOnce
from kaiser_club.api.visible import club_id_field, player_id_field
from kaiser_club.models import Player
from kaiser_club.request_limits import LARGEST_ID
from kaiser_club.sentences import N_

from ..choices import (
    ContractChoice,
    EndReasonChoice,
    HandKindChoice,
    MisdealReasonChoice,
    SeatChoice,
    SuitChoice,
    TeamChoice,
)
from ..models import Game, GameChange, Hand, Team
from ..results import ADJUSTED, game_result
from ..rules import Contract, HandEntry, HandKind, MisdealReason, Seat, Side, Suit
from .seen import team_id_field

HAND_NUMBER_MAX = 32767  # Hand.number is a PositiveSmallIntegerField


class PlayerRefSerializer(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ["id", "name"]


class TeamSerializer(serializers.ModelSerializer[Team]):
    player_one = PlayerRefSerializer(read_only=True)
    player_two = PlayerRefSerializer(read_only=True)
    # Ids among the user's clubs' only: another club's is answered as one that does not exist.
    club = club_id_field(required=False, allow_null=True)
    player_one_id = player_id_field(source="player_one", write_only=True)
    player_two_id = player_id_field(source="player_two", write_only=True)

    class Meta:
        model = Team
        fields = [
            "id",
            "name",
            "club",
            "player_one",
            "player_two",
            "player_one_id",
            "player_two_id",
        ]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["player_one"] == attrs["player_two"]:
            raise serializers.ValidationError(str(N_("A team needs two different players.")))
        return attrs


class HandEntrySerializer(serializers.Serializer[HandEntry]):
    """What a scorekeeper enters for one hand."""

    kind = serializers.ChoiceField(choices=HandKindChoice.choices, default=HandKind.PLAYED.value)
    bidder = serializers.ChoiceField(choices=SeatChoice.choices, required=False, allow_null=True)
    bid = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=99)
    contract = serializers.ChoiceField(choices=ContractChoice.choices, default=Contract.TRUMP.value)
    trump = serializers.ChoiceField(
        choices=SuitChoice.choices, required=False, allow_null=True, allow_blank=True
    )
    forced = serializers.BooleanField(default=False)
    bidding_team_tricks = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=99
    )
    five_hearts = serializers.ChoiceField(
        choices=TeamChoice.choices, required=False, allow_null=True, allow_blank=True
    )
    three_spades = serializers.ChoiceField(
        choices=TeamChoice.choices, required=False, allow_null=True, allow_blank=True
    )
    bidder_tricks = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, max_value=99
    )
    misdeal_reason = serializers.ChoiceField(
        choices=MisdealReasonChoice.choices, required=False, allow_null=True, allow_blank=True
    )
    completed_at = serializers.DateTimeField(required=False, allow_null=True)

    def to_entry(self) -> HandEntry:
        data = self.validated_data

        def opt(name: str) -> Any:
            value = data.get(name)
            return None if value in (None, "") else value

        return HandEntry(
            kind=HandKind(data["kind"]),
            bidder=Seat(int(opt("bidder"))) if opt("bidder") is not None else None,
            bid=opt("bid"),
            contract=Contract(data["contract"]),
            trump=Suit(opt("trump")) if opt("trump") else None,
            forced=data["forced"],
            bidding_team_tricks=opt("bidding_team_tricks"),
            five_hearts=Side(opt("five_hearts")) if opt("five_hearts") else None,
            three_spades=Side(opt("three_spades")) if opt("three_spades") else None,
            bidder_tricks=opt("bidder_tricks"),
            misdeal_reason=MisdealReason(opt("misdeal_reason")) if opt("misdeal_reason") else None,
            completed_at=opt("completed_at"),
        )


class HandRecordSerializer(HandEntrySerializer):
    client_id = serializers.UUIDField(
        help_text="Made by the client for each new hand; a retry sends the same id and body."
    )
    number = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=HAND_NUMBER_MAX,
        help_text="The hand number the client means to record; a stale one gets 409.",
    )
    entered_by_seat = serializers.ChoiceField(
        choices=SeatChoice.choices,
        required=False,
        allow_null=True,
        help_text="The seat of the player entering the hand: needed where the event has the "
        "other partnership confirm each hand.",
    )


class HandCorrectSerializer(HandEntrySerializer):
    reason = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=300,
        help_text="Why the hand is corrected: required, kept in the game's history.",
    )
    version = serializers.IntegerField(
        required=False,
        help_text="The game's version the correction was made against.",
        min_value=1,
        max_value=LARGEST_ID,
    )
    rollback = serializers.BooleanField(
        default=False,
        help_text="At an event: if the winner changes after the winner played on, roll back "
        "the later bracket games it fed (else the correction is refused, 409, with those games "
        "named).",
    )


class HandUndoSerializer(serializers.Serializer[dict[str, Any]]):
    number = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=HAND_NUMBER_MAX,
        help_text="The hand the client means to undo (the last).",
    )
    client_id = serializers.UUIDField(
        required=False,
        help_text="Or the hand by the id it was entered with: sent again once it is undone, "
        "nothing more is undone.",
    )
    reason = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=300,
        help_text="Why a finished game is reopened (an organiser's, kept in its history).",
    )


class HandSerializer(serializers.ModelSerializer[Hand]):
    class Meta:
        model = Hand
        fields = [
            "number",
            "client_id",
            "kind",
            "dealer",
            "bidder",
            "bid",
            "contract",
            "trump",
            "forced",
            "bidding_team_tricks",
            "five_hearts",
            "three_spades",
            "bidder_tricks",
            "misdeal_reason",
            "completed_at",
            "ns_points",
            "ew_points",
            "made",
            "ns_change",
            "ew_change",
            "ns_score",
            "ew_score",
            "after_time",
            "recorded_at",
        ]


class GameResultSerializer(serializers.Serializer[Any]):
    """A game's result as every page shows it (scoring.results): a forfeit counts 52–0 (at an
    event, the event's forfeit score), an event's adjusted result the organiser's scores, any
    other finished game its final scores; while it is played, its score and no winner."""

    ns_score = serializers.IntegerField(allow_null=True)
    ew_score = serializers.IntegerField(allow_null=True)
    winner = serializers.ChoiceField(choices=TeamChoice.choices, allow_blank=True)
    ended = serializers.ChoiceField(
        choices=[*EndReasonChoice.choices, (ADJUSTED, "Adjusted by the organiser")],
        allow_blank=True,
        help_text="How the game ended; empty while it is played.",
    )
    text = serializers.CharField(
        help_text="The result in a sentence, in the reader's language; empty while played."
    )


class GameSerializer(serializers.ModelSerializer[Game]):
    ns_team = TeamSerializer(read_only=True)
    ew_team = TeamSerializer(read_only=True)
    seats = serializers.SerializerMethodField()
    deadline = serializers.DateTimeField(read_only=True, allow_null=True)
    result = serializers.SerializerMethodField(
        help_text="The game's result as every page shows it: ns_score and ew_score above are "
        "the score sheet's."
    )

    class Meta:
        model = Game
        fields = [
            "id",
            "club",
            "ns_team",
            "ew_team",
            "seats",
            "first_dealer",
            "preset",
            "rules",
            "from_paper",
            "status",
            "ns_score",
            "ew_score",
            "dealer",
            "target",
            "bid_out_line",
            "ns_bid_out",
            "ew_bid_out",
            "hand_count",
            "winner",
            "end_reason",
            "forfeited_by",
            "result",
            "ended_at",
            "version",
            "time_limit_minutes",
            "started_at",
            "paused_at",
            "time_called_at",
            "deadline",
            "created_at",
        ]

    def get_seats(self, game: Game) -> dict[str, dict[str, Any]]:
        return {
            Seat(number).name.lower(): {"id": player.id, "name": player.name}
            for number, player in game.seat_players().items()
        }

    @extend_schema_field(GameResultSerializer)
    def get_result(self, game: Game) -> dict[str, Any]:
        result = game_result(game)
        return {
            "ns_score": result.ns_score,
            "ew_score": result.ew_score,
            "winner": result.winner,
            "ended": result.how,
            "text": result.sentence(game.ns_team, game.ew_team),
        }


class GameDetailSerializer(GameSerializer):
    hands = HandSerializer(many=True, read_only=True)

    class Meta(GameSerializer.Meta):
        fields = [*GameSerializer.Meta.fields, "hands"]


class GameCreateSerializer(serializers.Serializer[dict[str, Any]]):
    # Ids among the user's clubs' only: another club's is answered as one that does not exist.
    club = club_id_field()
    ns_team = team_id_field()
    ew_team = team_id_field()
    north = player_id_field(required=False)
    east = player_id_field(required=False)
    south = player_id_field(required=False)
    west = player_id_field(required=False)
    first_dealer = serializers.ChoiceField(choices=SeatChoice.choices)
    preset = serializers.CharField(required=False, allow_blank=True, max_length=40)
    rules = serializers.DictField(
        required=False, help_text="Options changed from the preset, by name."
    )
    from_paper = serializers.BooleanField(default=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        given = [name for name in ("north", "east", "south", "west") if name in attrs]
        if given and len(given) != 4:
            raise serializers.ValidationError(
                str(N_("Give all four seats, or none to seat the teams."))
            )
        return attrs


class ForfeitSerializer(serializers.Serializer[dict[str, Any]]):
    team = serializers.ChoiceField(choices=TeamChoice.choices, help_text="The team that forfeits.")
    reason = serializers.CharField(required=False, allow_blank=True, max_length=300)


class AddMinutesSerializer(serializers.Serializer[dict[str, Any]]):
    minutes = serializers.IntegerField(min_value=-60, max_value=120)


class GameChangeSerializer(serializers.ModelSerializer[GameChange]):
    by = serializers.SerializerMethodField()

    class Meta:
        model = GameChange
        fields = ["id", "hand_number", "action", "by", "at", "before", "after", "reason"]

    def get_by(self, change: GameChange) -> str:
        return change.by.get_username() if change.by else change.by_label


class RecordedSerializer(serializers.Serializer[Any]):
    hand = HandSerializer()
    game = GameSerializer()


# The hand's answer, by one RecordedSerializer made once (kaiser_club/api/made_once.py).
RECORDED = MadeOnce(RecordedSerializer)


class PresetSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()
    title = serializers.CharField()
    rules = serializers.DictField()
