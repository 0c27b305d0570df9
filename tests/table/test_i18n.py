"""English and French: every string of the table page and every refusal of the rules engine
has a French translation with the same placeholders, and the API answers in the request's
language."""

from __future__ import annotations

import re
import string
import uuid
from collections.abc import Mapping
from typing import Any

import pytest
from django.utils import translation

from kaiser_club.roles import Role
from scoring.refusal_text import PARAM_VALUES, TEMPLATES, refusal_message
from scoring.rules import MESSAGES, Refusal
from scoring.rules.refusals import CONTRACT_NAMES, MISDEAL_REASON_NAMES, SEAT_NAMES, TEAM_NAMES
from scoring.rules.ruleset import OPTION_LABELS
from tests.factories import member, start_game
from tests.table.po import entries

PRINTF = re.compile(r"%\((\w+)\)[sd]")


def braces(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_refusal_code_has_a_template_with_the_engines_placeholders() -> None:
    assert set(TEMPLATES) == set(MESSAGES)
    with translation.override("en"):
        for code, english in MESSAGES.items():
            assert str(TEMPLATES[code]) == english, code  # English answers are unchanged


def test_every_name_the_engine_prints_is_translatable() -> None:
    names: list[Mapping[Any, str]] = [
        TEAM_NAMES,
        SEAT_NAMES,
        CONTRACT_NAMES,
        MISDEAL_REASON_NAMES,
        OPTION_LABELS,
    ]
    for mapping in names:
        for value in mapping.values():
            assert value in PARAM_VALUES, value


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_refusal_is_in_french_with_the_same_placeholders(code: str) -> None:
    with translation.override("fr"):
        french = str(TEMPLATES[code])
    assert french != MESSAGES[code], f"{code} is not translated"
    assert braces(french) == braces(MESSAGES[code])


def test_every_string_of_the_table_page_is_translated_once_and_alike() -> None:
    table = [e for e in entries() if e.on_the_table_page]
    assert len(table) > 150
    for entry in table:
        assert not entry.fuzzy, entry.msgid
        assert all(entry.translations), f"untranslated: {entry.msgid!r}"
        for translated in entry.translations:
            assert set(PRINTF.findall(translated)) == set(PRINTF.findall(entry.msgid)), entry.msgid
            assert braces(translated) == braces(entry.msgid), entry.msgid


def test_a_refusal_with_names_in_it_reads_in_french() -> None:
    refusal = Refusal("forced_not_dealer", "forced", {"dealer": "North", "bidder": "East"})
    with translation.override("fr"):
        assert refusal_message(refusal) == (
            "Une mise forcée revient au donneur : c’est Nord qui donne, pas Est."
        )
    with translation.override("en"):
        assert refusal_message(refusal) == refusal.message


@pytest.mark.django_db
def test_the_api_answers_a_refusal_in_the_requests_language(api_client) -> None:  # type: ignore[no-untyped-def]
    game = start_game()
    api_client.force_login(member(game.club, Role.SCOREKEEPER))
    body = {
        "client_id": str(uuid.uuid4()),
        "bidder": 1,
        "bid": 4,
        "contract": "trump",
        "trump": "clubs",
        "bidding_team_tricks": 5,
        "five_hearts": "ew",
        "three_spades": "ns",
    }
    french = api_client.post(
        f"/api/games/{game.id}/hands/", body, format="json", HTTP_ACCEPT_LANGUAGE="fr"
    )
    assert french.status_code == 400
    assert french.json()["refusals"][0]["code"] == "bid_below_minimum"
    assert french.json()["detail"] == "La mise de 4 est sous le minimum de 7 de cette partie."
    assert french.json()["bid"] == ["La mise de 4 est sous le minimum de 7 de cette partie."]
    english = api_client.post(
        f"/api/games/{game.id}/hands/", body, format="json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert english.json()["detail"] == "Bid 4 is below this game's minimum of 7."
