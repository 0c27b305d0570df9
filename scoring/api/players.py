"""A player's statistics and rating through the API, visible as the player's page is."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from kaiser_club.errors import NotAllowed, NotFound
from kaiser_club.members.selectors import player_visible_to
from kaiser_club.sentences import N_

from ..ratings import current_ratings
from ..stats import Record, player_stats


class RecordSerializer(serializers.Serializer[Record]):
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    win_pct = serializers.FloatField(allow_null=True)
    minus_line_losses = serializers.IntegerField()
    hands = serializers.IntegerField()
    points = serializers.IntegerField()
    points_per_hand = serializers.FloatField(allow_null=True)
    net = serializers.IntegerField()
    net_per_hand = serializers.FloatField(allow_null=True)
    bids = serializers.IntegerField()
    bids_made = serializers.IntegerField()
    bids_made_pct = serializers.FloatField(allow_null=True)
    no_trump_bids = serializers.IntegerField()
    no_trump_made = serializers.IntegerField()
    kaiser_bids = serializers.IntegerField()


class PartnershipSerializer(serializers.Serializer[Any]):
    partner_id = serializers.IntegerField(source="partner.id")
    partner_name = serializers.CharField(source="partner.name")
    record = RecordSerializer()


class RatingStepSerializer(serializers.Serializer[Any]):
    game_id = serializers.IntegerField()
    before = serializers.FloatField()
    after = serializers.FloatField()
    won = serializers.BooleanField()


class PlayerStatsSerializer(serializers.Serializer[Any]):
    id = serializers.IntegerField(source="player.id")
    name = serializers.CharField(source="player.name")
    rating = serializers.FloatField()
    record = RecordSerializer()
    best_partner_id = serializers.IntegerField(allow_null=True)
    partnerships = PartnershipSerializer(many=True)
    rating_history = RatingStepSerializer(many=True)


class PlayerStatsView(APIView):
    """A player's record, partnerships and rating history. Public players: anyone; otherwise
    the player, staff and members of the player's clubs."""

    permission_classes = [AllowAny]

    @extend_schema(
        responses={
            200: PlayerStatsSerializer,
            403: OpenApiResponse(description="Signed out, and the player's page is not public."),
            404: OpenApiResponse(description="No such player, or not one you may see."),
        }
    )
    def get(self, request: Request, player_id: int) -> Response:
        player = player_visible_to(user=request.user, player_id=player_id)
        if player is None:
            if not request.user.is_authenticated:
                raise NotAllowed(N_("Sign in to see this player."), code="not_authenticated")
            raise NotFound(
                N_("There is no player %(player_id)s that you may see.", player_id=player_id)
            )
        stats = player_stats(player=player)
        ratings = current_ratings()
        best = stats.best_partner
        data = {
            "player": player,
            "rating": ratings.of(player.id),
            "record": stats.record,
            "best_partner_id": best.partner.id if best else None,
            "partnerships": stats.partnerships,
            "rating_history": ratings.steps_of(player.id),
        }
        return Response(PlayerStatsSerializer(data).data)
