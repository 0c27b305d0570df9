"""The 404 page: JSON under /api/ (an API client reads the answer; a person gets the page)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext
from django.views import defaults


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse(
            {
                "detail": gettext("There is nothing at this address in the API."),
                "code": "not_found",
            },
            status=404,
        )
    return defaults.page_not_found(request, exception)
