"""Player pages: a player's games with their score sheets, statistics and rating history.

Who may see one: anyone when the player made their page public; otherwise the player, staff,
and members of any of the player's clubs. Anyone else gets 404 (or, signed out, the sign-in
page), so a private player's existence is not given away."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from kaiser_club.members.selectors import player_visible_to
from kaiser_club.models import Club, Membership, Player
from kaiser_club.roles import Role
from kaiser_club.selectors import AnyUser, club_ids_with_role, has_role

from .models import Game
from .places import Place, places_of
from .rating_plot import rating_plot
from .ratings import current_ratings
from .results import GameResult, game_results, result_related
from .rules.rating import START
from .selectors import GAME_RELATED
from .stats import SEATS, partnership_stats, player_stats

GAMES_PER_PAGE = 25


def visible_player_or_refuse(request: HttpRequest, player_id: int) -> Player | HttpResponse:
    player = player_visible_to(user=request.user, player_id=player_id)
    if player is not None:
        return player
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    raise Http404(_("No such player, or their page is visible to their clubs' members only."))


@dataclass(frozen=True)
class GameLine:
    """One game from the player's side of the table: its result (``scoring.results``) read
    from the player's side."""

    game: Game
    result: GameResult
    partner: Player
    opponents: tuple[Player, Player]
    own_score: int | None
    other_score: int | None
    won: bool | None  # None while in progress
    rating_change: float | None
    viewable: bool  # the viewer may open the score sheet
    place: Place | None = None  # the event it was played at (None: a game of its club)


def games_of(*, player: Player) -> QuerySet[Game]:
    seated = Q()
    for seat in SEATS:
        seated |= Q(**{f"{seat}_id": player.id})
    return (
        Game.objects.filter(seated)
        .select_related(*GAME_RELATED, *result_related())
        .order_by("-created_at", "-id")
    )


def game_line(
    game: Game,
    result: GameResult,
    player: Player,
    changes: dict[int, float],
    viewer_clubs: list[int] | None,
    place: Place | None = None,
) -> GameLine:
    north_south = player.id in (game.north_id, game.south_id)
    if north_south:
        partner = game.south if game.north_id == player.id else game.north
        opponents, side, other_side = (game.east, game.west), "ns", "ew"
    else:
        partner = game.west if game.east_id == player.id else game.east
        opponents, side, other_side = (game.north, game.south), "ew", "ns"
    return GameLine(
        game=game,
        result=result,
        partner=partner,
        opponents=opponents,
        own_score=result.score_of(side),
        other_score=result.score_of(other_side),
        won=(result.winner == side) if result.finished else None,
        rating_change=changes.get(game.id),
        viewable=viewer_clubs is None or game.club_id in viewer_clubs,
        place=place,
    )


def _viewer_clubs(user: AnyUser) -> list[int] | None:
    return club_ids_with_role(user=user, at_least=Role.PLAYER)


def player_detail(request: HttpRequest, player_id: int) -> HttpResponse:
    found = visible_player_or_refuse(request, player_id)
    if isinstance(found, HttpResponse):
        return found
    player = found
    stats = player_stats(player=player)
    ratings = current_ratings()
    steps = ratings.steps_of(player.id)
    changes = {step.game_id: step.change for step in steps}
    page = Paginator(games_of(player=player), GAMES_PER_PAGE).get_page(request.GET.get("page"))
    viewer_clubs = _viewer_clubs(request.user)
    games = list(page.object_list)
    results = game_results(games)
    places = places_of(games)
    lines = [
        game_line(game, results[game.id], player, changes, viewer_clubs, places.get(game.id))
        for game in games
    ]
    clubs = [m.club for m in Membership.objects.filter(player=player).select_related("club")]
    plot = rating_plot([(s.game_id, s.after) for s in steps], start=START) if steps else None
    return render(
        request,
        "players/player_detail.html",
        {
            "player": player,
            "clubs": clubs,
            "stats": stats,
            "record": stats.record,
            "best": stats.best_partner,
            "rating": ratings.of(player.id),
            "rated_games": len(steps),
            "plot": plot,
            "page": page,
            "lines": lines,
            "is_self": request.user.is_authenticated and player.user_id == request.user.pk,
        },
    )


def partnership_detail(request: HttpRequest, player_id: int, partner_id: int) -> HttpResponse:
    """Two players' record as partners; visible to whoever may see both players' pages."""
    if player_id == partner_id:
        raise Http404(_("A player is not their own partner."))
    found = visible_player_or_refuse(request, player_id)
    if isinstance(found, HttpResponse):
        return found
    other = visible_player_or_refuse(request, partner_id)
    if isinstance(other, HttpResponse):
        return other
    partnership = partnership_stats(player=found, partner=other)
    return render(request, "players/partnership_detail.html", {"p": partnership})


@dataclass(frozen=True)
class RatingRow:
    player: Player
    rating: float
    rated_games: int
    wins: int
    last_change: float | None


@login_required
def club_ratings(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's members by rating (ratings count every club's games: a player has one)."""
    club = Club.objects.filter(slug=slug).first()
    if club is None or not has_role(user=request.user, club_id=club.id, at_least=Role.PLAYER):
        raise Http404(_("No such club, or you are not a member of it."))
    ratings = current_ratings()
    rows = []
    for membership in Membership.objects.filter(club=club).select_related("player"):
        steps = ratings.steps_of(membership.player_id)
        rows.append(
            RatingRow(
                player=membership.player,
                rating=ratings.of(membership.player_id),
                rated_games=len(steps),
                wins=sum(1 for step in steps if step.won),
                last_change=steps[-1].change if steps else None,
            )
        )
    rows.sort(key=lambda r: (r.rated_games == 0, -r.rating, r.player.name.lower()))
    return render(request, "players/club_ratings.html", {"club": club, "rows": rows})
