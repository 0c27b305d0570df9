"""The 404 page: JSON under /api/ (an API client reads the answer; a person gets the page)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext
from django.views import defaults

from ..sentences import Translatable, render


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith("/api/"):
        return JsonResponse(
            {
                "detail": gettext("There is nothing at this address in the API."),
                "code": "not_found",
            },
            status=404,
        )
    said = exception.args[0] if exception is not None and exception.args else None
    if isinstance(said, Translatable) and not isinstance(said, str):
        # A view's Http404(N_("...")): Django's page shows only a text, else the class's name.
        exception = Http404(render(said))
    return defaults.page_not_found(request, exception)
