"""The language switch every page carries, as a form with nothing of its reader in it.

Behind Django's CSRF check, ``set_language`` needs the reader's token in the form, and a page
holding a reader's token is theirs only: no shared cache may give it to the next phone in the
hall. The switch changes nothing but the reader's own language cookie, so it asks only what a
browser says of every form it sends: that it came from this site's own page
(``Sec-Fetch-Site``, else ``Origin``, else ``Referer``, compared as Django's CSRF check
compares them). A form posted from another site is refused with a sentence; the language is
left as it was.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import DisallowedHost, PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from django.views.i18n import set_language


def _origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _own_origins(request: HttpRequest) -> set[str]:
    try:
        host = request.get_host()
    except DisallowedHost:
        return set(settings.CSRF_TRUSTED_ORIGINS)
    scheme = "https" if request.is_secure() else "http"
    return {f"{scheme}://{host}", *settings.CSRF_TRUSTED_ORIGINS}


def from_this_site(request: HttpRequest) -> bool:
    """True if the browser says the form was sent from one of this site's pages."""
    fetched_from = request.headers.get("Sec-Fetch-Site")
    if fetched_from is not None:
        return fetched_from == "same-origin"
    origin = request.headers.get("Origin")
    if origin is not None:
        return origin in _own_origins(request)
    referer = request.headers.get("Referer")
    if referer is not None:
        try:
            return _origin_of(referer) in _own_origins(request)
        except ValueError:
            return False
    return False


@csrf_exempt
@require_POST
def language_choose(request: HttpRequest) -> HttpResponse:
    if not from_this_site(request):
        raise PermissionDenied(
            _(
                "The language was not changed: the request did not come from one of this "
                "site's pages. Open the page again and use its language button."
            )
        )
    response: HttpResponse = set_language(request)
    return response
