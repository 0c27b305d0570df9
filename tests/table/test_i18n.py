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
from kaiser_club.sentences import render
from scoring.refusal_text import refusal_message
from scoring.rules import MESSAGES, Refusal, Seat, Term
from scoring.rules.refusals import CONTRACT_NAMES, MISDEAL_REASON_NAMES, SEAT_NAMES, TEAM_NAMES
from scoring.rules.ruleset import OPTION_LABELS
from tests.factories import member, start_game
from tests.table.po import entries

PRINTF = re.compile(r"%\((\w+)\)[sd]")


def braces(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def catalogue() -> dict[str, list[str]]:
    return {entry.msgid: entry.translations for entry in entries()}


def test_every_refusal_template_is_in_the_catalogue_with_its_placeholders() -> None:
    french = catalogue()
    for code, english in MESSAGES.items():
        assert english in french, code
        assert all(set(PRINTF.findall(t)) == set(PRINTF.findall(english)) for t in french[english])
    with translation.override("en"):
        for code, english in MESSAGES.items():  # English answers are the engine's own text
            names = set(PRINTF.findall(english))
            refusal = Refusal(code, None, dict.fromkeys(names, 1))
            assert refusal_message(refusal) == refusal.message


def test_every_name_the_engine_prints_is_translatable() -> None:
    names: list[Mapping[Any, Term]] = [
        TEAM_NAMES,
        SEAT_NAMES,
        CONTRACT_NAMES,
        MISDEAL_REASON_NAMES,
        OPTION_LABELS,
    ]
    french = catalogue()
    with translation.override("fr"):
        for mapping in names:
            for term in mapping.values():
                assert term.template in french, term
                assert render(term) not in ("", None)


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_every_refusal_is_in_french_with_the_same_placeholders(code: str) -> None:
    names = set(PRINTF.findall(MESSAGES[code]))
    refusal = Refusal(code, None, dict.fromkeys(names, 7))
    with translation.override("fr"):
        french = refusal_message(refusal)
    assert french != refusal.message, f"{code} is not translated"


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
    refusal = Refusal(
        "forced_not_dealer",
        "forced",
        {"dealer": SEAT_NAMES[Seat.NORTH], "bidder": SEAT_NAMES[Seat.EAST]},
    )
    with translation.override("fr"):
        assert refusal_message(refusal) == (
            "Une mise forcée revient au donneur\u00a0: c’est Nord qui donne, pas Est."
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
