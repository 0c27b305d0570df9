"""Seasons: the list, a new season, and a season's leaderboard over its club nights."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from kaiser_club.actors import Actor
from kaiser_club.errors import NotFound

from .. import services
from ..forms import SeasonForm
from ..models import Season
from ..selectors import season_for, seasons_visible_to
from ..standings import season_leaderboard
from .common import attempt
from .events import _organiser_clubs


@login_required
def season_list(request: HttpRequest) -> HttpResponse:
    clubs = _organiser_clubs(request)
    form = SeasonForm(request.POST or None, clubs=clubs)
    if request.method == "POST" and clubs and form.is_valid():
        club = next(c for c in clubs if c.id == form.cleaned_data["club"])
        season = attempt(
            request,
            lambda: services.season_create(
                actor=Actor.of(request.user),
                club=club,
                name=form.cleaned_data["name"],
                starts_on=form.cleaned_data["starts_on"],
                ends_on=form.cleaned_data["ends_on"],
            ),
        )
        if isinstance(season, Season):
            return redirect("tournaments:season", season_id=season.id)
    seasons = seasons_visible_to(user=request.user).order_by("-starts_on", "-id")
    return render(
        request,
        "tournaments/season_list.html",
        {"seasons": seasons, "form": form if clubs else None},
    )


@login_required
def season_detail(request: HttpRequest, season_id: int) -> HttpResponse:
    try:
        season = season_for(user=request.user, season_id=season_id)
    except NotFound as exc:
        raise Http404(exc.message) from None
    return render(
        request,
        "tournaments/season_detail.html",
        {
            "season": season,
            "rows": season_leaderboard(season=season),
            "nights": season.events.order_by("date"),
        },
    )
