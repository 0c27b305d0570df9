"""The games API: thin views that check the role, call one service, and render the answer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from kaiser_club.actors import Actor
from kaiser_club.errors import NotFound
from kaiser_club.refusals import role_refused
from kaiser_club.request_limits import ID_IN_PATH
from kaiser_club.roles import Role
from kaiser_club.selectors import club_ids_with_role
from kaiser_club.sentences import N_

from .. import services
from ..errors import StaleGame
from ..models import Game, Team
from ..permissions import GameAction, may_on_game
from ..rules import PRESETS, Seat, Side
from ..selectors import (
    game_for_actor,
    game_history,
    game_with_hands,
    game_with_hands_for,
    games_visible_to,
)
from .seen import GameFilter, TeamFilter
from .serializers import (
    RECORDED,
    AddMinutesSerializer,
    ForfeitSerializer,
    GameChangeSerializer,
    GameCreateSerializer,
    GameDetailSerializer,
    GameSerializer,
    HandCorrectSerializer,
    HandRecordSerializer,
    HandSerializer,
    HandUndoSerializer,
    PresetSerializer,
    RecordedSerializer,
    TeamSerializer,
)

ERRORS = {
    400: OpenApiResponse(description="The request breaks a rule; a message per field."),
    403: OpenApiResponse(description="Your role in this club does not allow this."),
    404: OpenApiResponse(description="No such game."),
    409: OpenApiResponse(description="The game moved on; the body holds its current state."),
}


class PresetListView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses=PresetSerializer(many=True))
    def get(self, request: Request) -> Response:
        data = [
            {"name": name, "title": rules.title, "rules": rules.to_dict()}
            for name, rules in PRESETS.items()
        ]
        return Response(PresetSerializer(data, many=True).data)


class TeamViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet[Team],
):
    serializer_class = TeamSerializer
    filterset_class = TeamFilter

    def get_queryset(self) -> QuerySet[Team]:
        ids = club_ids_with_role(user=self.request.user, at_least=Role.PLAYER)
        qs = Team.objects.select_related("player_one", "player_two").order_by("id")
        return qs if ids is None else qs.filter(club_id__in=ids)

    def perform_create(self, serializer: Any) -> None:
        data = serializer.validated_data
        serializer.instance = services.team_create(
            actor=Actor.of(self.request.user),
            club=data.get("club"),
            player_one=data["player_one"],
            player_two=data["player_two"],
            name=data.get("name", ""),
        )


def no_game(game_id: int | str) -> NotFound:
    """The one refusal for a game that is not there or not the caller's to see (the game's
    page, its actions and its hands say the same sentence)."""
    return NotFound(N_("There is no game %(game_id)s that you can see.", game_id=game_id))


class GameViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Game]):
    filterset_class = GameFilter
    lookup_value_regex = ID_IN_PATH

    def get_queryset(self) -> QuerySet[Game]:
        return games_visible_to(user=self.request.user)

    def get_serializer_class(self) -> Any:
        return GameDetailSerializer if self.action == "retrieve" else GameSerializer

    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        game = game_with_hands_for(actor=Actor.of(request.user), game_id=int(kwargs["pk"]))
        if game is None:
            raise no_game(kwargs["pk"])
        return Response(GameDetailSerializer(game).data)

    def _game(self, pk: str, needed: GameAction) -> Game:
        game = self.get_queryset().filter(id=pk).first()
        if game is None:
            raise no_game(pk)
        if needed is not GameAction.READ and not may_on_game(
            actor=Actor.of(self.request.user), action=needed, game=game
        ):  # the game's club's players see it: get_queryset holds those only
            raise role_refused(game.club)
        return game

    def _answer(self, call: Callable[[], Any], game_id: int) -> Any:
        """Runs a service; a stale write is answered with the game's current state."""
        try:
            return call()
        except StaleGame as exc:
            fresh = game_with_hands(game_id=game_id)
            exc.extra["game"] = GameDetailSerializer(fresh).data
            raise

    def _detail(self, game_id: int, code: int = status.HTTP_200_OK) -> Response:
        return Response(GameDetailSerializer(game_with_hands(game_id=game_id)).data, status=code)

    @extend_schema(request=GameCreateSerializer, responses={201: GameDetailSerializer, **ERRORS})
    def create(self, request: Request) -> Response:
        incoming = GameCreateSerializer(data=request.data, context={"request": request})
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        seats = (
            {Seat[name.upper()]: data[name] for name in ("north", "east", "south", "west")}
            if "north" in data
            else None
        )
        game = services.game_create(
            actor=Actor.of(request.user),
            club=data["club"],
            ns_team=data["ns_team"],
            ew_team=data["ew_team"],
            seats=seats,
            first_dealer=Seat(int(data["first_dealer"])),
            preset_name=data.get("preset") or "",
            rule_changes=data.get("rules"),
            from_paper=data["from_paper"],
        )
        return self._detail(game.id, status.HTTP_201_CREATED)

    @extend_schema(
        request=HandRecordSerializer,
        responses={201: RecordedSerializer, 200: RecordedSerializer, **ERRORS},
        description="Record the next hand. Retrying with the same client_id and body answers "
        "200 with the hand already recorded.",
    )
    @action(detail=True, methods=["post"])
    def hands(self, request: Request, pk: str) -> Response:
        # One read: the game if visible, the actor's role, and what the event's rules read
        # (who may enter: the game's (event's) rules, asked by the service).
        actor = Actor.of(request.user)
        game = game_for_actor(actor=actor, game_id=int(pk))
        if game is None:
            raise no_game(pk)
        incoming = HandRecordSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        seat = incoming.validated_data.get("entered_by_seat")
        recorded = self._answer(
            lambda: services.hand_record_by(
                actor=actor,
                game=game,
                entry=incoming.to_entry(),
                client_id=incoming.validated_data["client_id"],
                number=incoming.validated_data.get("number"),
                entered_by_seat=None if seat is None else Seat(int(seat)),
            ),
            game.id,
        )
        body = RECORDED.answer({"hand": recorded.hand, "game": recorded.game})
        return Response(body, status=201 if recorded.created else 200)

    @extend_schema(request=HandUndoSerializer, responses={200: GameDetailSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def undo(self, request: Request, pk: str) -> Response:
        game = self._game(pk, GameAction.READ)  # who may undo: the game's (event's) rules
        incoming = HandUndoSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        self._answer(
            lambda: services.hand_undo_by(
                actor=Actor.of(request.user),
                game_id=game.id,
                number=incoming.validated_data.get("number"),
                client_id=incoming.validated_data.get("client_id"),
                reason=incoming.validated_data.get("reason", ""),
            ),
            game.id,
        )
        return self._detail(game.id)

    @extend_schema(request=HandCorrectSerializer, responses={200: GameDetailSerializer, **ERRORS})
    @action(detail=True, methods=["put"], url_path=r"hands/(?P<number>\d+)")
    def correct(self, request: Request, pk: str, number: str) -> Response:
        game = self._game(pk, GameAction.READ)  # who may correct: the service decides
        incoming = HandCorrectSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        self._answer(
            lambda: services.hand_correct_by(
                actor=Actor.of(request.user),
                game=game,
                number=int(number),
                entry=incoming.to_entry(),
                reason=incoming.validated_data.get("reason", ""),
                expected_version=incoming.validated_data.get("version"),
                roll_back=incoming.validated_data["rollback"],
            ),
            game.id,
        )
        return self._detail(game.id)

    @extend_schema(request=None, responses={200: GameDetailSerializer, **ERRORS})
    @action(detail=True, methods=["post"], url_path="call-time")
    def call_time(self, request: Request, pk: str) -> Response:
        game = self._game(pk, GameAction.READ)
        services.game_call_time_by(actor=Actor.of(request.user), game=game)
        return self._detail(game.id)

    @extend_schema(request=ForfeitSerializer, responses={200: GameDetailSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def forfeit(self, request: Request, pk: str) -> Response:
        game = self._game(pk, GameAction.READ)
        incoming = ForfeitSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        services.game_forfeit_by(
            actor=Actor.of(request.user),
            game=game,
            forfeited_by=Side(incoming.validated_data["team"]),
            reason=incoming.validated_data.get("reason", ""),
        )
        return self._detail(game.id)

    @extend_schema(request=None, responses={200: GameDetailSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def pause(self, request: Request, pk: str) -> Response:
        game = self._game(pk, GameAction.READ)
        services.clock_pause_by(actor=Actor.of(request.user), game=game)
        return self._detail(game.id)

    @extend_schema(request=None, responses={200: GameDetailSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def resume(self, request: Request, pk: str) -> Response:
        game = self._game(pk, GameAction.READ)
        services.clock_resume_by(actor=Actor.of(request.user), game=game)
        return self._detail(game.id)

    @extend_schema(request=AddMinutesSerializer, responses={200: GameDetailSerializer, **ERRORS})
    @action(detail=True, methods=["post"], url_path="add-minutes")
    def add_minutes(self, request: Request, pk: str) -> Response:
        game = self._game(pk, GameAction.READ)
        incoming = AddMinutesSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        services.clock_add_minutes_by(
            actor=Actor.of(request.user), game=game, minutes=incoming.validated_data["minutes"]
        )
        return self._detail(game.id)

    @extend_schema(responses={200: GameChangeSerializer(many=True), **ERRORS})
    @action(detail=True, methods=["get"], pagination_class=None)  # a plain list, as answered
    def history(self, request: Request, pk: str) -> Response:
        game = self._game(pk, GameAction.MANAGE)
        return Response(GameChangeSerializer(game_history(game_id=game.id), many=True).data)


__all__ = ["GameViewSet", "HandSerializer", "PresetListView", "TeamViewSet"]
