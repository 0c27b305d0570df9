"""Seasons, events, their settings and rule sets, standings and generation jobs."""

from __future__ import annotations

from typing import Any

import django_filters.rest_framework as filters
from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.request import Request
from rest_framework.response import Response

from kaiser_club.actors import Actor
from kaiser_club.api.visible import clubs_seen, seen_queryset
from kaiser_club.errors import NotFound
from kaiser_club.models import Club
from kaiser_club.request_limits import ID_IN_PATH
from kaiser_club.sentences import N_

from .. import services
from ..models import Event, GenerationJob, Season
from ..selectors import events_visible_to, season_for, seasons_visible_to
from ..services import actions
from ..standings import event_tables, season_leaderboard
from .base import ERRORS, EventView
from .serializers import (
    EventCreateSerializer,
    EventSerializer,
    EventSettingsSerializer,
    JobSerializer,
    RuleChangesSerializer,
    SeasonSerializer,
    StandingSerializer,
    seasons_seen,
)


class SeasonFilter(filters.FilterSet):
    """``?club=``: one of the user's clubs; another club's id is refused as one that does not
    exist, not answered with an empty list (``kaiser_club.api.visible``)."""

    club = filters.ModelChoiceFilter(queryset=seen_queryset(clubs_seen, Club))

    class Meta:
        model = Season
        fields = ["club"]


class EventFilter(filters.FilterSet):
    club = filters.ModelChoiceFilter(queryset=seen_queryset(clubs_seen, Club))
    season = filters.ModelChoiceFilter(queryset=seen_queryset(seasons_seen, Season))

    class Meta:
        model = Event
        fields = ["club", "kind", "season", "status", "format"]


class _NoFormatOverride:
    URL_FORMAT_OVERRIDE = None


class FormatIsAFilter(DefaultContentNegotiation):
    """Here ``?format=swiss`` filters events by their format. DRF reads ``?format=`` as the
    renderer to use, and answered 404 to every value but json (found by schemathesis)."""

    settings = _NoFormatOverride  # type: ignore[assignment]


class SeasonViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet[Season],
):
    serializer_class = SeasonSerializer
    filterset_class = SeasonFilter
    lookup_value_regex = ID_IN_PATH

    def get_queryset(self) -> QuerySet[Season]:
        return seasons_visible_to(user=self.request.user).order_by("-starts_on", "-id")

    @extend_schema(request=SeasonSerializer, responses={201: SeasonSerializer, **ERRORS})
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        incoming = SeasonSerializer(data=request.data, context={"request": request})
        incoming.is_valid(raise_exception=True)
        data = incoming.validated_data
        season = services.season_create(
            actor=Actor.of(request.user),
            club=data["club"],
            name=data["name"],
            starts_on=data.get("starts_on"),
            ends_on=data.get("ends_on"),
            tiebreaks=data.get("tiebreaks"),
        )
        return Response(SeasonSerializer(season).data, status=status.HTTP_201_CREATED)


class SeasonLeaderboardView(EventView):
    @extend_schema(responses={200: StandingSerializer(many=True), **ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        season = season_for(user=request.user, season_id=pk)
        return Response(StandingSerializer(season_leaderboard(season=season), many=True).data)


class EventViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet[Event]
):
    serializer_class = EventSerializer
    filterset_class = EventFilter
    lookup_value_regex = ID_IN_PATH
    content_negotiation_class = FormatIsAFilter

    def get_queryset(self) -> QuerySet[Event]:
        return events_visible_to(user=self.request.user).order_by("-date", "-id")

    @extend_schema(request=EventCreateSerializer, responses={201: EventSerializer, **ERRORS})
    def create(self, request: Request) -> Response:
        incoming = EventCreateSerializer(data=request.data, context={"request": request})
        incoming.is_valid(raise_exception=True)
        data = dict(incoming.validated_data)
        club = data.pop("club")
        event = actions.event_create_by(
            actor=Actor.of(request.user),
            club=club,
            name=data.pop("name"),
            date=data.pop("date"),
            kind=data.pop("kind"),
            format=data.pop("format", "swiss"),
            preset_name=data.pop("preset", "") or None,
            rule_changes=data.pop("rule_changes", None),
            **data,
        )
        return Response(EventSerializer(event).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=EventSettingsSerializer, responses={200: EventSerializer, **ERRORS})
    def partial_update(self, request: Request, pk: str) -> Response:
        event = EventView().event_seen(request, pk)
        incoming = EventSettingsSerializer(
            data=request.data, partial=True, context={"request": request}
        )
        incoming.is_valid(raise_exception=True)
        event = services.event_update(
            actor=Actor.of(request.user), event=event, **incoming.validated_data
        )
        return Response(EventSerializer(event).data)


class RulesView(EventView):
    @extend_schema(request=RuleChangesSerializer, responses={200: EventSerializer, **ERRORS})
    def patch(self, request: Request, pk: int) -> Response:
        event = self.event_seen(request, pk)
        incoming = RuleChangesSerializer(data=request.data)
        incoming.is_valid(raise_exception=True)
        event = services.event_change_rules(
            actor=Actor.of(request.user), event=event, changes=incoming.validated_data["changes"]
        )
        return Response(EventSerializer(event).data)


class StandingsView(EventView):
    @extend_schema(responses={200: StandingSerializer(many=True), **ERRORS})
    def get(self, request: Request, pk: int) -> Response:
        event = self.event(request, pk)
        return Response(StandingSerializer(event_tables(event=event).placings, many=True).data)


class GenerateView(EventView):
    @extend_schema(
        request=None,
        responses={202: JobSerializer, **ERRORS},
        description="Queues the generation of the next round (or the bracket, or a new draw "
        "of a round not yet started). Poll the job until it is done or failed.",
    )
    def post(self, request: Request, pk: int) -> Response:
        event = self.event(request, pk)
        job = actions.generation_request_by(actor=Actor.of(request.user), event=event)
        job.refresh_from_db()
        return Response(JobSerializer(job).data, status=status.HTTP_202_ACCEPTED)


class JobView(EventView):
    @extend_schema(responses={200: JobSerializer, **ERRORS})
    def get(self, request: Request, pk: int, job_id: int) -> Response:
        event = self.event(request, pk)
        job = GenerationJob.objects.filter(event=event, id=job_id).first()
        if job is None:
            raise NotFound(
                N_("%(name)s has no generation job %(job_id)s.", name=event.name, job_id=job_id)
            )
        return Response(JobSerializer(job).data)
