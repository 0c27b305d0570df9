from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from kaiser_club.middleware import health_answer
from kaiser_club.selectors import clubs_for_user, player_for_user


def home(request: HttpRequest) -> HttpResponse:
    clubs = clubs_for_user(user=request.user) if request.user.is_authenticated else []
    player = player_for_user(request.user)
    return render(request, "home.html", {"clubs": clubs, "player": player})


def healthz(request: HttpRequest) -> JsonResponse:
    """For load balancers and compose health checks: the process answers and the database too.
    ``HealthCheckMiddleware`` answers first (whatever the host and scheme); this is what the
    URL names."""
    return health_answer()
