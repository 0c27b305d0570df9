"""The hand's input (DRF serializers as documented, each given its own fields) refuses in its
reader's language: a refusal worded for a French reader never reaches an English one, one
request after another or two threads at the same moment."""

from __future__ import annotations

import threading
import uuid
from typing import Any

import pytest
from django.utils import translation

from scoring.api.serializers import HandCorrectSerializer, HandRecordSerializer

REFUSAL = {
    "en": "Ensure this value is less than or equal to 99.",
    "fr": "Assurez-vous que cette valeur est inférieure ou égale à 99.",
}


def refusal(serializer_class: type[Any], language: str) -> list[str]:
    with translation.override(language):
        serializer = serializer_class(data={"bid": 100, "client_id": str(uuid.uuid4())})
        assert not serializer.is_valid()
        return [str(message) for message in serializer.errors["bid"]]


def test_a_valid_hand_is_valid() -> None:
    body = {
        "bidder": "0",
        "bid": 7,
        "contract": "trump",
        "trump": "hearts",
        "bidding_team_tricks": 6,
        "five_hearts": "ns",
        "three_spades": "ew",
        "client_id": str(uuid.UUID(int=1)),
        "number": 1,
    }
    serializer = HandRecordSerializer(data=body)
    assert serializer.is_valid(), serializer.errors
    assert serializer.validated_data["bid"] == 7
    assert serializer.validated_data["client_id"] == uuid.UUID(int=1)


@pytest.mark.parametrize("serializer_class", [HandRecordSerializer, HandCorrectSerializer])
@pytest.mark.parametrize("first, then", [("fr", "en"), ("en", "fr")])
def test_a_refusal_is_worded_in_each_readers_language(
    serializer_class: type[Any], first: str, then: str
) -> None:
    for language in (first, then, first):
        assert refusal(serializer_class, language) == [REFUSAL[language]]


def test_two_threads_refuse_each_in_its_readers_language() -> None:
    """A French reader and an English one refused at the same moment, many times over."""
    start = threading.Barrier(2)
    heard: dict[str, set[str]] = {"en": set(), "fr": set()}

    def reader(language: str) -> None:
        start.wait()
        for _ in range(200):
            heard[language].update(refusal(HandRecordSerializer, language))

    threads = [threading.Thread(target=reader, args=(language,)) for language in heard]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert heard == {language: {REFUSAL[language]} for language in heard}
