"""Pages about games: thin views over the selectors."""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from kaiser_club.actors import Actor
from kaiser_club.sentences import N_

from .permissions import GameAction, may_on_game
from .places import places_of
from .results import game_result, game_results
from .score_sheet import score_sheet
from .selectors import game_history, game_with_hands_for, games_visible_to


@login_required
def game_list(request: HttpRequest) -> HttpResponse:
    shown = games_visible_to(user=request.user)[:200]
    games = list(shown)
    results = game_results(games)  # the games read once, with what their results read
    places = places_of(games)  # their events, in one query
    rows = [(game, results[game.id], places.get(game.id)) for game in games]
    return render(request, "scoring/game_list.html", {"games": shown, "rows": rows})


@login_required
def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    actor = Actor.of(request.user)
    game = game_with_hands_for(actor=actor, game_id=game_id)
    if game is None:
        raise Http404(N_("No such game, or not one of your clubs'."))
    hands = game.hands.all()
    history = (
        list(game_history(game_id=game.id))
        if may_on_game(actor=actor, action=GameAction.MANAGE, game=game)
        else None
    )
    return render(
        request,
        "scoring/game_detail.html",
        {
            "game": game,
            "result": game_result(game),
            "hands": hands,
            "sheet": score_sheet(game, hands),
            "history": history,
        },
    )
