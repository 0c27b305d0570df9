"""The Content-Security-Policy header built once (kaiser_club/content_policy.py): the same
header django-csp builds, rebuilt when the settings change, and django-csp's own way for a
response that asks for its own policy or a nonce."""

from __future__ import annotations

from typing import Any

import pytest
from csp.constants import NONCE
from csp.exceptions import CSPNonceError
from csp.utils import build_policy
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory

from kaiser_club.content_policy import CSPMiddleware

HEADER = "Content-Security-Policy"
REPORT_ONLY = "Content-Security-Policy-Report-Only"


def through(response: HttpResponse, *, nonce: bool = False) -> tuple[HttpRequest, HttpResponse]:
    request = RequestFactory().get("/somewhere/")
    middleware = CSPMiddleware(lambda request: response)
    middleware.process_request(request)
    if nonce:
        str(request.csp_nonce)  # type: ignore[attr-defined]  # a template took one
    return request, middleware.process_response(request, response)  # type: ignore[return-value]


@pytest.mark.django_db
def test_pages_and_the_api_carry_the_policy_django_csp_builds() -> None:
    for path in ("/", "/api/presets/"):
        answer = Client().get(path)
        assert answer.headers[HEADER] == build_policy()
        assert REPORT_ONLY not in answer.headers


def test_a_changed_setting_changes_the_header(settings: Any) -> None:
    before = through(HttpResponse())[1][HEADER]
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {"default-src": ["'none'"]}}
    settings.CONTENT_SECURITY_POLICY_REPORT_ONLY = {"DIRECTIVES": {"img-src": ["'self'"]}}
    _, response = through(HttpResponse())
    assert response[HEADER] == "default-src 'none'" != before
    assert response[REPORT_ONLY] == build_policy(report_only=True)
    assert "img-src 'self'" in response[REPORT_ONLY]


def test_a_response_with_its_own_policy_gets_it() -> None:
    response = HttpResponse()
    response._csp_update = {"img-src": ["https://example.org"]}  # type: ignore[attr-defined]
    _, answered = through(response)
    assert "img-src 'self' data: https://example.org" in answered[HEADER]


def test_a_nonce_taken_is_django_csps_and_none_can_be_taken_after(settings: Any) -> None:
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {"script-src": ["'self'", NONCE]}}
    request, response = through(HttpResponse(), nonce=True)
    assert f"'nonce-{request.csp_nonce}'" in response[HEADER]  # type: ignore[attr-defined]
    request, response = through(HttpResponse())
    assert "nonce" not in response[HEADER]
    with pytest.raises(CSPNonceError):
        str(request.csp_nonce)  # type: ignore[attr-defined]


def test_an_exempt_response_or_one_with_a_header_keeps_its_own() -> None:
    exempt = HttpResponse()
    exempt._csp_exempt = True  # type: ignore[attr-defined]
    assert HEADER not in through(exempt)[1]
    own = HttpResponse()
    own[HEADER] = "default-src 'self'"
    assert through(own)[1][HEADER] == "default-src 'self'"
