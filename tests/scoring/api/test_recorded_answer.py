"""The hand's answer (scoring.api.serializers.RECORDED: one RecordedSerializer made once,
kaiser_club/api/made_once.py) is what a RecordedSerializer made for the request answers: for a
game just started, after a misdeal, for a game played to its end, in each reader's language,
and from several threads at once."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection
from django.utils import translation

from scoring.api.serializers import RECORDED, RecordedSerializer
from scoring.models import Game, Hand
from tests.factories import start_game
from tests.scoring.hands import NS, N, misdeal, played, record, record_fillers


def recorded(game_id: int) -> dict[str, Any]:
    game = Game.objects.get(id=game_id)
    return {"hand": Hand.objects.filter(game=game).order_by("number").last(), "game": game}


def games() -> list[int]:
    started = start_game(preset_name="standard")
    record_fillers(started, 1)
    misdealt = start_game(preset_name="standard")
    record_fillers(misdealt, 3)
    record(misdealt, misdeal())
    ended = start_game(preset_name="standard")
    for _ in range(20):  # North bids 7 and North-South take every trick and both cards
        if Game.objects.get(id=ended.id).status != "in_progress":
            break
        record(ended, played(N, 7, 8, NS, NS))
    return [started.id, misdealt.id, ended.id]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_answer_is_the_serializers(language: str) -> None:
    ids = games()
    assert Game.objects.get(id=ids[-1]).status != "in_progress"  # one game played to its end
    with translation.override(language):
        for game_id in ids:
            shown = recorded(game_id)
            assert RECORDED.answer(shown) == RecordedSerializer(shown).data


@pytest.mark.django_db(transaction=True)
def test_threads_answering_at_once_each_get_their_own_answer() -> None:
    ids = games()
    expected = {}
    for language in ("en", "fr"):
        with translation.override(language):
            for game_id in ids:
                expected[language, game_id] = RecordedSerializer(recorded(game_id)).data
    start = threading.Barrier(4)
    wrong: list[Any] = []

    def reader(language: str) -> None:
        try:
            start.wait()
            with translation.override(language):
                for _ in range(20):
                    for game_id in ids:
                        answer = RECORDED.answer(recorded(game_id))
                        if answer != expected[language, game_id]:
                            wrong.append((language, game_id, answer))
        finally:
            connection.close()

    threads = [threading.Thread(target=reader, args=(lang,)) for lang in ("en", "fr") * 2]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert wrong == []
