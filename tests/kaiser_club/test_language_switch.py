"""The language switch takes no CSRF token (so a public page holds nothing of its reader and a
shared cache may give it to anyone), and is refused when the browser says another site sent it."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

SWITCH = "/i18n/setlang/"


def switch(headers: dict[str, str]) -> tuple[int, str, str | None]:
    client = Client(enforce_csrf_checks=True)
    answer = client.post(SWITCH, {"language": "fr", "next": "/e/"}, headers=headers)
    cookie = answer.cookies.get("django_language")
    return answer.status_code, answer.content.decode(), cookie.value if cookie else None


@pytest.mark.parametrize(
    "headers",
    [
        {"Sec-Fetch-Site": "same-origin"},
        {"Origin": "http://testserver"},
        {"Referer": "http://testserver/e/4/standings/"},
    ],
    ids=["fetch-site", "origin", "referer"],
)
def test_a_form_from_this_sites_page_switches_without_a_token(headers: dict[str, str]) -> None:
    status, _, language = switch(headers)
    assert status == 302 and language == "fr"


@pytest.mark.parametrize(
    "headers",
    [
        {"Sec-Fetch-Site": "cross-site", "Origin": "http://testserver"},
        {"Sec-Fetch-Site": "same-site"},
        {"Origin": "https://elsewhere.example"},
        {"Origin": "null"},
        {"Referer": "https://elsewhere.example/page"},
        {"Referer": "not a url ["},
        {},
    ],
    ids=["cross-site", "same-site", "origin", "null-origin", "referer", "bad-referer", "none"],
)
def test_a_form_from_elsewhere_is_refused_with_a_sentence(headers: dict[str, str]) -> None:
    status, body, language = switch(headers)
    assert status == 403 and language is None
    assert "The language was not changed" in body


def test_the_switch_is_a_post() -> None:
    assert Client().get(SWITCH, headers={"Sec-Fetch-Site": "same-origin"}).status_code == 405


def test_the_public_pages_switch_form_carries_no_token(client: Client) -> None:
    page = client.get("/e/").content.decode()
    assert 'action="/i18n/setlang/"' in page
    assert "csrfmiddlewaretoken" not in page
