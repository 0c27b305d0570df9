"""An event with something on every page, and every page it has, for the tests that read them
all with the cache (Redis) away: the organiser's pages, the API, the public pages (the
projector and the CSV among them), the season's leaderboard and a table's pages.

``sweep`` GETs each page with the client given and says which answered 5xx (or not as
expected) and how long each took; the tests then check what the pages say (``TEAMS``)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from django.test import Client

from kaiser_club.actors import Actor
from kaiser_club.models import Player
from kaiser_club.roles import Role
from tests.factories import member
from tests.tournaments.helpers import generate, make_event, new_club, win_for, win_game
from tournaments import services
from tournaments.choices import RegistrationMode
from tournaments.models import Entry, Event, GenerationJob, Pairing, Round, Season, Table
from tournaments.registration_selectors import own_page_path
from tournaments.services import registrations

TEAMS = ["Team 1", "Team 2", "Team 3", "Team 4"]


@dataclass
class World:
    """A Swiss event, round 1 under way with one game won; a season whose club night (a
    progressive night, played) has public pages; the organiser who runs them."""

    organiser: Any
    event: Event
    night: Event
    season: Season
    won: Pairing  # round 1's finished game
    playing: Pairing  # round 1's game still going
    table: Table
    player_id: int  # a player of the event whose page is public
    night_player_id: int  # the same on the club night (a progressive night's own standings)
    own_page: str  # the private page of a pair on the event's waiting list

    def organiser_pages(self) -> list[str]:
        e, p = self.event.id, self.won.id
        job = GenerationJob.objects.filter(event=self.event).order_by("id").first()
        assert job is not None
        return [
            "/",
            "/events/",
            f"/events/{e}/",
            f"/events/{e}/settings/",
            f"/events/{e}/bracket/",
            f"/events/{e}/entries/",
            f"/events/{e}/rounds/1/",
            f"/events/{e}/rounds/1/playing/",
            f"/events/{e}/games/{p}/",
            f"/events/{e}/games/{self.playing.id}/",
            f"/events/{e}/tables/",
            f"/events/{e}/jobs/{job.id}/",
            f"/events/{e}/reports/",
            f"/events/{e}/reports/jobs",
            f"/events/{e}/export.json",
            f"/events/{self.night.id}/",
            "/events/seasons/",
            f"/events/seasons/{self.season.id}/",
        ]

    def api_pages(self) -> list[str]:
        e = self.event.id
        return [
            "/api/events/",
            f"/api/events/{e}/",
            f"/api/events/{e}/standings/",
            f"/api/events/{e}/entries/",
            f"/api/events/{e}/rounds/",
            f"/api/events/{e}/rounds/1/",
            f"/api/events/{e}/pairings/{self.won.id}/",
            f"/api/events/{e}/tables/",
            f"/api/events/{self.night.id}/standings/",
            "/api/seasons/",
            f"/api/seasons/{self.season.id}/leaderboard/",
        ]

    def public_pages(self) -> list[str]:
        """Every public page, and the part each page's poll asks for."""
        e, night = self.event.id, self.night.id
        entry = self.won.home_id
        pages = [
            f"/e/{e}/",
            f"/e/{e}/standings/",
            f"/e/{e}/bracket/",
            f"/e/{e}/rounds/1/",
            f"/e/{e}/games/{self.won.id}/",
            f"/e/{e}/games/{self.playing.id}/",
            f"/e/{e}/live/",
            f"/e/{e}/teams/{entry}/",
            f"/e/{e}/players/{self.player_id}/",
            f"/e/{night}/players/{self.night_player_id}/",
            f"/e/{e}/projector/",
            f"/e/{night}/",
            f"/e/{night}/standings/",
            f"/e/seasons/{self.season.id}/",
            self.own_page,
        ]
        signs_up = f"/e/{e}/register/"  # its sign-up page (under way: it says so, no form)
        return [
            "/e/",
            f"/e/{e}/standings.csv",
            signs_up,
            *pages,
            *(f"{page}?part=1" for page in pages),
        ]

    def public_redirects(self) -> list[tuple[str, int]]:
        """A signed-in player's way to their own page: a stranger is sent to sign in."""
        return [(f"/e/{self.event.id}/me/", 302)]

    def table_pages(self) -> list[tuple[str, int]]:
        """A table's QR link (a redirect to its page, which the client then follows with the
        grant), a wrong code (counted by the rate limit: refused, not an error)."""
        return [(f"/t/{self.table.code}/", 302), ("/t/not-a-table-code-at-all/", 404)]


def build() -> World:
    club = new_club()
    organiser = member(club, Role.ORGANISER)
    season = services.season_create_unchecked(club=club, name="Season")
    event = make_event(teams=4, format="swiss", club=club, verification=False)
    Event.objects.filter(id=event.id).update(registration=RegistrationMode.OPEN, capacity=4)
    event.refresh_from_db()
    waiting = registrations.registration_submit(
        actor=Actor.of(None),
        event_id=event.id,
        people=[
            registrations.Person("Wai Ting", "wai@example.org"),
            registrations.Person("Lee Stening", "lee@example.org"),
        ],
        base_url="http://testserver",
    )
    generate(event)
    services.round_start_unchecked(round_=Round.objects.get(event=event, number=1))
    first = list(Pairing.objects.filter(event=event, game__isnull=False).order_by("id"))
    win_for(first[0], first[0].home)
    night = make_event(teams=4, format="progressive", club=club, rounds=1)
    night.kind, night.season = "club_night", season
    night.save()
    generate(night)
    for pairing in Pairing.objects.filter(event=night, game__isnull=False):
        win_game(pairing.game_id)
    table = Table.objects.filter(event=event).order_by("number").first()
    assert table is not None and table.code
    home = first[0].home
    assert home is not None and home.team is not None
    player = home.team.player_one
    night_entry = Entry.objects.filter(event=night).order_by("id").first()
    assert night_entry is not None and night_entry.player is not None
    Player.objects.filter(id__in=[player.id, night_entry.player.id]).update(is_public=True)
    return World(
        organiser=organiser,
        event=event,
        night=night,
        season=season,
        won=first[0],
        playing=first[1],
        table=table,
        player_id=player.id,
        night_player_id=night_entry.player.id,
        own_page=own_page_path(waiting.registrants.get(position=1)),
    )


@dataclass
class Swept:
    """What a sweep saw: each page's answer and time, and what went wrong."""

    answers: dict[str, Any] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    wrong: list[str] = field(default_factory=list)

    def text(self, url: str) -> str:
        return str(self.answers[url].content.decode())

    @property
    def slowest(self) -> tuple[str, float]:
        url = max(self.seconds, key=lambda u: self.seconds[u])
        return url, self.seconds[url]

    @property
    def mean(self) -> float:
        return sum(self.seconds.values()) / len(self.seconds)


def sweep(client: Any, public: Any, world: World) -> Swept:
    """GETs every page: ``client`` signed in as the organiser, ``public`` signed in as nobody
    (so the stored public pages answer it). Every page must answer 200 (the table's links as
    ``table_pages`` says)."""
    swept = Swept()

    def get(reader: Any, url: str, expected: int = 200) -> None:
        started = time.monotonic()
        answer = reader.get(url)
        swept.seconds[url] = time.monotonic() - started
        swept.answers[url] = answer
        if answer.status_code != expected:
            swept.wrong.append(f"{url}: {answer.status_code} (expected {expected})")

    for url in [*world.organiser_pages(), *world.api_pages()]:
        get(client, url)
    for url in world.public_pages():
        get(public, url)
    for url, expected in world.public_redirects():
        get(public, url, expected)
    tablet = Client(raise_request_exception=False)
    for url, expected in world.table_pages():
        get(tablet, url, expected)
    get(tablet, f"/table/{world.table.id}/")
    get(tablet, f"/table/{world.table.id}/state")
    return swept


def assert_right(swept: Swept, world: World) -> None:
    """The pages show the standings: every team, the winner of the game played first."""
    assert not swept.wrong, swept.wrong
    winner = world.won.home.name if world.won.home else ""
    e, night = world.event.id, world.night.id
    standings = swept.answers[f"/api/events/{e}/standings/"].json()
    names = [row["name"] for row in standings]
    assert sorted(names) == TEAMS, names
    assert names[0] == winner, names
    assert standings[0]["wins"] == 1
    for url in (
        f"/events/{e}/",
        f"/e/{e}/",
        f"/e/{e}/standings/",
        f"/e/{e}/standings.csv",
        f"/e/{e}/projector/",
        f"/e/{e}/standings/?part=1",
    ):
        text = swept.text(url)
        assert all(team in text for team in TEAMS), url
    csv_rows = swept.text(f"/e/{e}/standings.csv").splitlines()
    assert winner in csv_rows[1], csv_rows[:2]
    players = swept.answers[f"/api/events/{night}/standings/"].json()
    assert len(players) == 4 and all(row["wins"] is not None for row in players)
    board = swept.answers[f"/api/seasons/{world.season.id}/leaderboard/"].json()
    season_page = swept.text(f"/e/seasons/{world.season.id}/")
    assert board and all(row["name"] in season_page for row in board)
    assert swept.text(f"/events/seasons/{world.season.id}/").count(board[0]["name"]) >= 1
