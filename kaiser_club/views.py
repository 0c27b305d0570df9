import logging

from django.db import InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from kaiser_club.middleware import RETRY_AFTER_SECONDS, UNAVAILABLE_MESSAGE
from kaiser_club.selectors import clubs_for_user, player_for_user

logger = logging.getLogger(__name__)


def home(request: HttpRequest) -> HttpResponse:
    clubs = clubs_for_user(user=request.user) if request.user.is_authenticated else []
    player = player_for_user(request.user)
    return render(request, "home.html", {"clubs": clubs, "player": player})


def health_answer() -> JsonResponse:
    """200 when this process and the database answer; 503 with the database sentence and
    Retry-After when the database does not (any other error is a 500, as anywhere)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except (OperationalError, InterfaceError) as exc:
        logger.warning("Health check: the database does not answer: %s", exc)
        response = JsonResponse(
            {"detail": UNAVAILABLE_MESSAGE, "code": "database_unavailable"}, status=503
        )
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    return JsonResponse({"ok": True})


def healthz(request: HttpRequest) -> JsonResponse:
    """For load balancers and compose health checks: the process answers and the database too.
    ``HealthCheckMiddleware`` answers first (whatever the host and scheme); this is what the
    URL names."""
    return health_answer()
