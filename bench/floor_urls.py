"""The project's URLs, and ``POST /bench/floor/``: the framework's own floor for an API write.

A DRF view behind the same middleware, session, CSRF check, authentication and permission as
the games API, which parses the JSON body it is sent and answers a small JSON without a
statement of its own. What a signed-in hand costs above it is the app's own work. Served only
by bench/record_hands.py (``bench/floor_settings.py``)."""

from __future__ import annotations

from django.urls import include, path
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


class Floor(APIView):
    def post(self, request: Request) -> Response:
        return Response({"received": len(request.data), "ok": True}, status=201)


urlpatterns = [
    path("", include("kaiser_club.urls")),
    path("bench/floor/", Floor.as_view()),
]
