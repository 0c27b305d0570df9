"""The Content-Security-Policy header (django-csp's middleware, ``CONTENT_SECURITY_POLICY`` in
the settings): the policy the settings give on pages and the API, a changed setting changing
it, and django-csp's documented decorators and nonce for a view that asks for its own."""

from __future__ import annotations

from typing import Any

import pytest
from csp.constants import NONCE
from csp.decorators import csp_exempt, csp_update
from csp.exceptions import CSPNonceError
from csp.middleware import CSPMiddleware
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory

HEADER = "Content-Security-Policy"
REPORT_ONLY = "Content-Security-Policy-Report-Only"
POLICY = {  # django-csp writes the directives in no fixed order
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
}


def directives(header: str) -> set[str]:
    return set(header.split("; "))


def plain(request: HttpRequest) -> HttpResponse:
    return HttpResponse()


def through(view: Any = plain, *, nonce: bool = False) -> tuple[HttpRequest, HttpResponse]:
    request = RequestFactory().get("/somewhere/")
    middleware = CSPMiddleware(view)
    middleware.process_request(request)
    if nonce:
        str(request.csp_nonce)  # type: ignore[attr-defined]  # a template took one
    response = view(request)
    return request, middleware.process_response(request, response)  # type: ignore[return-value]


@pytest.mark.django_db
def test_pages_and_the_api_carry_the_settings_policy() -> None:
    for path in ("/", "/api/presets/"):
        answer = Client().get(path)
        assert directives(answer.headers[HEADER]) == POLICY
        assert REPORT_ONLY not in answer.headers


def test_a_changed_setting_changes_the_header(settings: Any) -> None:
    assert directives(through()[1][HEADER]) == POLICY
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {"default-src": ["'none'"]}}
    settings.CONTENT_SECURITY_POLICY_REPORT_ONLY = {"DIRECTIVES": {"img-src": ["'self'"]}}
    _, response = through()
    assert response[HEADER] == "default-src 'none'"
    assert "img-src 'self'" in directives(response[REPORT_ONLY])


def test_a_view_that_updates_the_policy_gets_it() -> None:
    view = csp_update({"img-src": ["https://example.org"]})(plain)
    _, answered = through(view)
    assert "img-src 'self' data: https://example.org" in answered[HEADER]


def test_a_nonce_taken_is_in_the_header_and_none_can_be_taken_after(settings: Any) -> None:
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {"script-src": ["'self'", NONCE]}}
    request, response = through(nonce=True)
    assert f"'nonce-{request.csp_nonce}'" in response[HEADER]  # type: ignore[attr-defined]
    request, response = through()
    assert "nonce" not in response[HEADER]
    with pytest.raises(CSPNonceError):
        str(request.csp_nonce)  # type: ignore[attr-defined]


def test_an_exempt_view_or_a_response_with_a_header_keeps_its_own() -> None:
    assert HEADER not in through(csp_exempt()(plain))[1]

    def own(request: HttpRequest) -> HttpResponse:
        response = HttpResponse()
        response[HEADER] = "default-src 'self'"
        return response

    assert through(own)[1][HEADER] == "default-src 'self'"
