"""A game's result reads the same on every surface that shows it (``scoring.results``): the
club's game page and games list, the player's page, the games API, and for an event's game
the organiser's round and game pages, the table's end screen, the public game, round and team
pages, the projector, the standings and the PDFs (score sheet, round tables).

A forfeit counts 52–0 (at an event, the event's forfeit score, which is what its standings
count), never the 0–0 or whatever the sheet stood at when it was recorded; an adjusted result
counts the organiser's scores; a game won on time or to the target its final scores.

Table-driven: each case builds one game, each surface reads it back as (N–S score, E–W score,
winner, words), and every surface must say the same."""

from __future__ import annotations

import html
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import pytest
from django.core.cache import cache
from django.test import Client, TestCase
from rest_framework.test import APIClient

from kaiser_club.models import Club
from scoring import services as scoring
from scoring.models import Game
from scoring.rules import Suit
from tests.factories import ClubFactory, UserFactory, start_game
from tests.scoring.hands import EW, NS, E, N, S, played
from tests.tournaments.helpers import generate, make_event, winning_hand
from tests.tournaments.reports.helpers import ask, pdf_text
from tournaments import services
from tournaments.models import Event, Pairing, Round

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()  # the public pages keep what they rendered, by event


@dataclass
class Built:
    game: Game
    pairing: Pairing | None = None  # an event's game


@dataclass(frozen=True)
class Case:
    name: str
    build: Callable[[], Built]
    ns: int
    ew: int
    winner: str  # "ns" or "ew"
    words: tuple[str, ...]  # how it ended: the sentence's words or the short ones


@dataclass(frozen=True)
class Shown:
    ns: int
    ew: int
    winner: str | None  # None: the surface does not say who won
    words: str


def _number(shown: str) -> int:
    """A score as a page prints it, a true minus sign included."""
    return int(shown.replace("\u2212", "-"))


def _record(game_id: int, *entries: Any) -> None:
    with TestCase.captureOnCommitCallbacks(execute=True):
        for entry in entries:
            scoring.hand_record(game_id=game_id, entry=entry, client_id=uuid.uuid4())


def _event(**settings: Any) -> Pairing:
    """Two teams, one round started: one game, Team 1 at home (North–South)."""
    event = make_event(teams=2, format="swiss", rounds=1, **settings)
    generate(event)
    services.round_start_unchecked(round_=Round.objects.get(event=event, number=1))
    return Pairing.objects.select_related("home", "away").get(event=event)


def _club_forfeit() -> Built:
    game = start_game(club=cast(Club, ClubFactory()))
    _record(game.id, played(E, 7, 5, EW, NS))  # the sheet: N–S 0, E–W 10
    scoring.game_forfeit(game_id=game.id, forfeited_by=EW)
    return Built(Game.objects.get(id=game.id))


def _club_to_the_target() -> Built:
    game = start_game(club=cast(Club, ClubFactory()))
    _record(game.id, *(winning_hand(EW) for _ in range(3)))  # 0–60
    return Built(Game.objects.get(id=game.id))


def _event_forfeit(**settings: Any) -> Callable[[], Built]:
    def build() -> Built:
        pairing = _event(**settings)
        assert pairing.game_id is not None
        _record(pairing.game_id, played(E, 7, 5, EW, NS))  # the sheet: N–S 0, E–W 10
        with TestCase.captureOnCommitCallbacks(execute=True):
            services.pairing_forfeit_unchecked(
                pairing=pairing, forfeiting="away", reason="Left early"
            )
        pairing.refresh_from_db()
        return Built(Game.objects.get(id=pairing.game_id), pairing)

    return build


def _event_on_time() -> Built:
    pairing = _event()
    assert pairing.game_id is not None
    _record(pairing.game_id, played(N, 7, 5, NS, EW))  # N–S 10
    with TestCase.captureOnCommitCallbacks(execute=True):
        scoring.game_call_time(game_id=pairing.game_id)
    _record(pairing.game_id, played(S, 7, 6, NS, EW, trump=Suit.HEARTS))  # 21 to -1: over
    pairing.refresh_from_db()
    return Built(Game.objects.get(id=pairing.game_id), pairing)


def _event_adjusted() -> Built:
    pairing = _event()
    assert pairing.game_id is not None
    _record(pairing.game_id, *(winning_hand(NS) for _ in range(3)))  # 60–0 at the table
    with TestCase.captureOnCommitCallbacks(execute=True):
        services.pairing_adjust_unchecked(
            pairing=pairing, winner="away", home_points=40, away_points=45, reason="Misdeal"
        )
    pairing.refresh_from_db()
    return Built(Game.objects.get(id=pairing.game_id), pairing)


FORFEIT = ("won by forfeit", "forfeit")
CASES = [
    Case("a club game forfeited", _club_forfeit, 52, 0, "ns", FORFEIT),
    Case("a club game to the target", _club_to_the_target, 0, 60, "ew", ("target",)),
    Case("an event's game forfeited", _event_forfeit(), 52, 0, "ns", FORFEIT),
    Case(
        "an event's game forfeited, its own forfeit score",
        _event_forfeit(forfeit_winner_score=40, forfeit_loser_score=10),
        40,
        10,
        "ns",
        FORFEIT,
    ),
    Case(
        "an event's game won on time",
        _event_on_time,
        21,
        -1,
        "ns",
        ("the higher score when time was up", "on time"),
    ),
    Case("an event's game adjusted", _event_adjusted, 40, 45, "ew", ("adjusted",)),
]


# --- reading each surface ---------------------------------------------------------------------


def _match(pattern: str, text: str) -> re.Match[str]:
    found = re.search(pattern, text, re.S)
    assert found is not None, (pattern, text[:2000])
    return found


def _text(fragment: str) -> str:
    """A fragment of a page as a reader sees it: tags out, entities and spaces as one."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def _names(built: Built) -> tuple[str, str]:
    """The two sides as the club's pages name them."""
    return str(built.game.ns_team), str(built.game.ew_team)


def _winner_of_sentence(sentence: str, names: tuple[str, str]) -> str | None:
    for side, name in zip(("ns", "ew"), names, strict=True):
        if sentence.startswith(f"{name} won"):
            return side
    return None


def _staff_user() -> Any:
    return UserFactory(is_staff=True)


def _staff() -> Client:
    client = Client()
    client.force_login(_staff_user())
    return client


def _get(client: Client, url: str) -> str:
    answer = client.get(url)
    assert answer.status_code == 200, (url, answer.status_code)
    return answer.content.decode()


def _row(page: str, marker: str) -> str:
    """The table row of ``page`` holding ``marker``."""
    at = page.index(marker)
    return page[page.rindex("<tr", 0, at) : page.index("</tr>", at)]


def club_game_page(built: Built) -> Shown:
    page = _get(_staff(), f"/games/{built.game.id}/")
    scores = re.findall(r"<strong>([-−]?\d+)</strong>", page[page.index('class="scores"') :])
    sentence = _text(_match(r'<p class="result">(.*?)</p>', page)[1])
    winner = _winner_of_sentence(sentence, _names(built))
    return Shown(_number(scores[0]), _number(scores[1]), winner, sentence)


def games_list(built: Built) -> Shown:
    row = _row(_get(_staff(), "/games/"), f'href="/games/{built.game.id}/"')
    ns, ew = re.findall(r'<td class="num">([-−]?\d+)</td>', row)
    sentence = _text(row.rsplit("<td>", 1)[1]).split(" · ", 1)[1]
    return Shown(_number(ns), _number(ew), _winner_of_sentence(sentence, _names(built)), sentence)


def player_page(built: Built) -> Shown:
    """North's page: own score first."""
    row = _row(_get(_staff(), f"/players/{built.game.north_id}/"), f"/games/{built.game.id}/")
    own, other = _match(r'<td class="num">([-−]?\d+)\s?–\s?([-−]?\d+)</td>', row).groups()
    result = _text(row.split('<td class="num">', 2)[1].split("</td>", 1)[1])
    won = result.startswith("won")
    return Shown(_number(own), _number(other), "ns" if won else "ew", result)


def _api_result(built: Built, answer: dict[str, Any]) -> Shown:
    result = answer["result"]
    return Shown(result["ns_score"], result["ew_score"], result["winner"], result["text"])


def _api() -> APIClient:
    client = APIClient()
    client.force_authenticate(_staff_user())
    return client


def api_game(built: Built) -> Shown:
    answer = _api().get(f"/api/games/{built.game.id}/")
    assert answer.status_code == 200
    body = answer.json()
    shown = _api_result(built, body)
    assert shown.winner is None or _winner_of_sentence(shown.words, _names(built)) == shown.winner
    return shown


def api_games_list(built: Built) -> Shown:
    answer = _api().get("/api/games/")
    assert answer.status_code == 200
    listed = next(g for g in answer.json()["results"] if g["id"] == built.game.id)
    return _api_result(built, listed)


CLUB_SURFACES: list[Callable[[Built], Shown]] = [
    club_game_page,
    games_list,
    player_page,
    api_game,
    api_games_list,
]


# An event's own surfaces name the sides by their entries.


def _event_names(pairing: Pairing) -> tuple[str, str]:
    assert pairing.home is not None and pairing.away is not None
    return pairing.home.name, pairing.away.name


def organiser_round_page(built: Built) -> Shown:
    pairing = built.pairing
    assert pairing is not None
    page = _get(_staff(), f"/events/{pairing.event_id}/rounds/1/")
    row = _row(page, f"/events/{pairing.event_id}/games/{pairing.id}/")
    cells = re.findall(r'<td class="num">(.*?)</td>', row, re.S)  # table, N–S, E–W
    result_column = row.split('<td class="num">')[3].split("<td>", 1)[1].split("</td>", 1)[0]
    return Shown(_number(cells[1]), _number(cells[2]), None, _text(result_column))


def organiser_game_page(built: Built) -> Shown:
    pairing = built.pairing
    assert pairing is not None
    page = _get(_staff(), f"/events/{pairing.event_id}/games/{pairing.id}/")
    said = _text(_match(r'<p id="result">(.*?)</p>', page)[1])
    ns, ew, sentence = _match(r"— ([-−]?\d+)\s?–\s?([-−]?\d+)\. (.*)$", said).groups()
    game_line = _text(page[page.index("Game:") : page.index("</p>", page.index("Game:"))])
    assert re.search(r"\d+–\d+", game_line) is None, game_line  # one score on the page
    return Shown(
        _number(ns), _number(ew), _winner_of_sentence(sentence, _event_names(pairing)), said
    )


def table_end_screen(built: Built) -> Shown:
    pairing = built.pairing
    assert pairing is not None and pairing.table is not None and pairing.table.code
    device = Client()
    assert device.get(f"/t/{pairing.table.code}/").status_code == 302
    page = _get(device, f"/table/{pairing.table_id}/")
    sentence = _text(_match(r'<p class="winner">(.*?)</p>', page)[1])
    final = _match(r'<p class="final">(.*?)</p>', page)[1]
    ns, ew = re.findall(r"<strong>([-−]?\d+)</strong>", final)
    winner = _winner_of_sentence(sentence, ("North–South", "East–West"))
    return Shown(_number(ns), _number(ew), winner, sentence)


def public_game_page(built: Built) -> Shown:
    pairing = built.pairing
    assert pairing is not None
    page = _get(Client(), f"/e/{pairing.event_id}/games/{pairing.id}/")
    ns = _match(r'id="ns-score">([-−]?\d+)<', page)[1]
    ew = _match(r'id="ew-score">([-−]?\d+)<', page)[1]
    sentence = _text(_match(r'id="ended">(.*?)</p>', page)[1])
    return Shown(
        _number(ns), _number(ew), _winner_of_sentence(sentence, _event_names(pairing)), sentence
    )


def _public_row(page: str, pairing: Pairing) -> Shown:
    row = _row(page, f'data-pairing="{pairing.id}"')
    ns = _match(r'class="home-score">([-−]?\d+)<', row)[1]
    ew = _match(r'class="away-score">([-−]?\d+)<', row)[1]
    cells = re.findall(r'<td class="(winner)?">', row)
    winner = "ns" if cells[0] == "winner" else "ew" if cells[1] == "winner" else None
    return Shown(_number(ns), _number(ew), winner, _text(row.rsplit("<td>", 1)[1]))


def public_round_page(built: Built) -> Shown:
    pairing = built.pairing
    assert pairing is not None
    return _public_row(_get(Client(), f"/e/{pairing.event_id}/rounds/1/"), pairing)


def public_team_page(built: Built) -> Shown:
    pairing = built.pairing
    assert pairing is not None
    return _public_row(_get(Client(), f"/e/{pairing.event_id}/teams/{pairing.home_id}/"), pairing)


def projector(built: Built) -> Shown:
    pairing = built.pairing
    assert pairing is not None
    page = _get(Client(), f"/e/{pairing.event_id}/projector/")
    row = _row(page, f">{_event_names(pairing)[0]}</td>")
    ns, ew = _match(r'<td class="pts">([-−]?\d+)\s?–\s?([-−]?\d+)</td>', row).groups()
    teams = re.findall(r'<td class="team( won)?">', row)
    winner = "ns" if teams[0] else "ew" if teams[1] else None
    return Shown(_number(ns), _number(ew), winner, "")


def standings(built: Built) -> Shown:
    """What the standings count: each team's points for, and who has the win."""
    pairing = built.pairing
    assert pairing is not None
    answer = _api().get(f"/api/events/{pairing.event_id}/standings/")
    assert answer.status_code == 200
    rows = {row["id"]: row for row in answer.json()}
    home, away = rows[pairing.home_id], rows[pairing.away_id]
    assert (home["points_against"], away["points_against"]) == (
        away["points_for"],
        home["points_for"],
    )
    winner = "ns" if home["wins"] else "ew" if away["wins"] else None
    return Shown(home["points_for"], away["points_for"], winner, "")


def _pdf_words(built: Built, kind: str, **subject: Any) -> str:
    pairing = built.pairing
    assert pairing is not None
    event = Event.objects.get(id=pairing.event_id)
    return " ".join(pdf_text(ask(event, kind, **subject)).split())


def score_sheet_pdf(built: Built) -> Shown:
    assert built.pairing is not None
    text = _pdf_words(built, "score_sheet", game=built.game)
    ns, ew, sentence = _match(r"N–S ([-−]?\d+) · E–W ([-−]?\d+) — (.*?\.)", text).groups()
    return Shown(
        _number(ns),
        _number(ew),
        _winner_of_sentence(sentence, _event_names(built.pairing)),
        sentence,
    )


def round_tables_pdf(built: Built) -> Shown:
    assert built.pairing is not None
    text = _pdf_words(built, "round_tables", round_=built.pairing.round)
    ns, ew = _match(r"([-−]?\d+)\s?–\s?([-−]?\d+)", text[text.index("Result") :]).groups()
    return Shown(_number(ns), _number(ew), None, "")  # the score only


EVENT_SURFACES: list[Callable[[Built], Shown]] = [
    organiser_round_page,
    organiser_game_page,
    table_end_screen,
    public_game_page,
    public_round_page,
    public_team_page,
    projector,
    standings,
    score_sheet_pdf,
    round_tables_pdf,
]


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_every_surface_shows_the_same_result(case: Case) -> None:
    built = case.build()
    surfaces = CLUB_SURFACES + (EVENT_SURFACES if built.pairing is not None else [])
    shown = {surface.__name__: surface(built) for surface in surfaces}
    scores = {name: (s.ns, s.ew) for name, s in shown.items()}
    assert scores == dict.fromkeys(shown, (case.ns, case.ew))
    winners = {name: s.winner for name, s in shown.items() if s.winner is not None}
    assert winners == dict.fromkeys(winners, case.winner)
    assert len(winners) >= len(shown) - 2  # only the organiser's round row and a PDF's table
    said = {name: s.words for name, s in shown.items() if s.words}
    unsaid = {
        name: words
        for name, words in said.items()
        if not any(word in words.lower() for word in case.words)
    }
    assert unsaid == {}


def test_the_result_is_said_in_french_too() -> None:
    forfeited = _club_forfeit()
    client = _staff()
    client.cookies["django_language"] = "fr"
    page = _get(client, f"/games/{forfeited.game.id}/")
    assert f"{forfeited.game.ns_team} a gagné par forfait." in page
    adjusted = _event_adjusted()
    answer = _api().get(f"/api/games/{adjusted.game.id}/", HTTP_ACCEPT_LANGUAGE="fr")
    assert answer.json()["result"]["text"] == (
        f"{adjusted.game.ew_team} a gagné\u00a0: résultat ajusté par l’organisateur."
    )
