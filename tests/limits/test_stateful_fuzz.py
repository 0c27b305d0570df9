"""Nothing accepted breaks a read: a Hypothesis state machine makes random writes
through the API and the table endpoints of a running Swiss event, with values drawn mostly
from what a scorekeeper or an organiser sends (so hands get recorded, games end, rounds get
generated) and otherwise from the extremes of every type (``fuzz_values``). After each write:

- a 5xx is a failure, whatever the write;
- accepted (2xx/3xx): every page and endpoint of the event it touched (``fuzz_reads``: the
  organiser's pages, the public pages, the projector, the table pages, the API, the CSV and the
  JSON export) answers 200, or what that page documents; and no text people type (names,
  venues, reasons) is stored otherwise than cleaned (``kaiser_club.text``);
- refused (4xx): every row of the project's apps' tables is as it was before. No table is left
  out: no refusal here logs its attempt in the database (a wrong table code is counted in the
  cache, and the table code is not fuzzed).

The event starts with round 1 drawn and started; the fuzzer also creates and imports events
and starts friendly games of the club, and reads those too. CI runs ``KAISER_FUZZ_RUNS`` (3)
events of ``KAISER_FUZZ_STEPS`` (15) writes each from a fixed seed (``KAISER_FUZZ_SEED``); a
longer run on one's own machine: ``KAISER_FUZZ_RUNS=40 KAISER_FUZZ_STEPS=40
KAISER_FUZZ_RANDOM=1 pytest tests/limits/test_stateful_fuzz.py -s`` (``-s`` shows the counts
tried; ``KAISER_FUZZ_VERBOSE=1`` each write; ``KAISER_FUZZ_ONLY=event_import`` one kind)."""

from __future__ import annotations

import json
import os
from collections import Counter
from typing import Any, cast

import pytest
from django.core.cache import cache
from django.db import transaction
from django.test import Client, TestCase
from hypothesis import HealthCheck, Phase, seed, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, rule, run_state_machine_as_test
from rest_framework.test import APIClient

from kaiser_club.models import Club, Player
from kaiser_club.roles import Role
from scoring.models import Game, Hand
from tests.factories import ClubFactory, PlayerFactory, member
from tests.tournaments.helpers import generate, make_event
from tournaments.models import Entry, Event, Pairing, Round, Table
from tournaments.services.rounds import round_start_unchecked

from .fuzz_reads import Read, event_reads, snapshot, snapshot_changes, unclean_texts
from .fuzz_values import (
    EXTREME,
    NAME,
    REASON,
    SEAT,
    SIDE,
    UUIDS,
    body,
    hand_entry,
    hand_fields,
    mixed,
    to_json,
)

pytestmark = [pytest.mark.django_db, pytest.mark.long]

RUNS = int(os.environ.get("KAISER_FUZZ_RUNS", "3"))
STEPS = int(os.environ.get("KAISER_FUZZ_STEPS", "15"))
# A fixed seed in CI, so that a run is the same run each time; KAISER_FUZZ_RANDOM=1 for new ones.
RANDOM = os.environ.get("KAISER_FUZZ_RANDOM") == "1"
SEED = int(os.environ.get("KAISER_FUZZ_SEED", "11"))
VERBOSE = os.environ.get("KAISER_FUZZ_VERBOSE") == "1"  # with -s: each write and its answer
TRIED: Counter[str] = Counter()  # what the fuzzer sent and read, printed at the end

ROUND_ACTIONS = ["start", "start-waiting", "pause", "resume", "add-minutes"]
ROUND_ACTIONS += ["swap-tables", "swap-teams"]
PAIRING_ACTIONS = ["forfeit", "adjust", "late", "bye-points", "substitute", "clock"]
GAME_ACTIONS = ["undo", "call-time", "forfeit", "pause", "resume", "add-minutes"]
TABLE_WRITES = ["hands", "hands", "preview", "confirm", "discard", "undo", "acknowledge"]
# How often each write is drawn: mostly hands, so that games end and rounds get generated.
WRITES = {
    "api_hand": 6,
    "table_write": 6,
    "generate": 3,
    "api_game_action": 2,
    "round_action": 2,
    "pairing_action": 2,
    "pairing_correct_or_rollback": 2,
    "entry_change": 2,
    "entry_add": 1,
    "entries_csv": 1,
    "event_create": 1,
    "event_settings": 1,
    "event_rules": 1,
    "event_import": 1,
    "table_change": 1,
    "team_create": 1,
    "game_create": 1,
}
WEIGHTED = [name for name, weight in WRITES.items() for _ in range(weight)]
# KAISER_FUZZ_ONLY=event_import,entries_csv: those writes only, to dig at one door.
if os.environ.get("KAISER_FUZZ_ONLY"):
    WEIGHTED = os.environ["KAISER_FUZZ_ONLY"].split(",")
RULE_OPTIONS: dict[str, st.SearchStrategy[Any]] = {
    "min_bid": st.integers(4, 8),
    "target": st.sampled_from([40, 41, 52, 62]),
    "bid_out_line": st.sampled_from([None, 45, 47]),
    "no_trump": st.sampled_from(["none", "high", "high_and_low"]),
    "steal_the_five": st.sampled_from(["off", "scores", "wins"]),
    "kaiser_bid": st.sampled_from(["off", "bidder_alone", "team", "kaiser_40"]),
    "misdeals": st.just([]),
    "time_limit_minutes": st.sampled_from([None, 30, 60]),
    "five_bonus": st.integers(0, 10),
    "three_penalty": st.integers(0, 10),
    "raised_target": st.sampled_from([None, 62]),
}
# Changes to a rule set: each option plausible, or now and then an extreme of any type.
RULE_CHANGES = st.fixed_dictionaries(
    {}, optional={name: mixed(option) for name, option in RULE_OPTIONS.items()}
)


class EventFuzz(RuleBasedStateMachine):
    """One Swiss event of four teams, run by its organiser, through random writes."""

    def __init__(self) -> None:
        super().__init__()
        # Each run's rows are rolled back at its end (teardown), within the test's transaction.
        self._atomic = transaction.atomic()
        self._atomic.__enter__()
        cache.clear()
        self.club = cast(Club, ClubFactory())
        self.event = make_event(teams=4, format="swiss", club=self.club, rounds=3)
        # Round 1 drawn and started, so that the first writes already find games to score.
        generate(self.event)
        round_start_unchecked(round_=Round.objects.get(event=self.event, number=1))
        self.events = [self.event.id]
        self.spare = [cast(Player, PlayerFactory()).id for _ in range(6)]
        # Most players let their page be public, so that the public player pages are read too.
        Player.objects.exclude(id=self.spare[0]).update(is_public=True)
        organiser = member(self.club, Role.ORGANISER)
        api = APIClient()
        api.force_authenticate(organiser)
        page = Client()
        page.force_login(organiser)
        self.clients: dict[str, Client] = {"api": api, "page": page, "public": Client()}
        self.log: list[str] = []
        self.friendly: list[int] = []  # games of the club outside the event, made by the fuzzer

    def teardown(self) -> None:
        TRIED["runs"] += 1
        print(f"after run {TRIED['runs']}: {dict(TRIED)}")  # shown with -s: a long run's progress
        transaction.set_rollback(True)
        self._atomic.__exit__(None, None, None)

    # --- sending and checking -----------------------------------------------------------------

    def send(
        self,
        who: str,
        method: str,
        url: str,
        data: str | bytes,
        *,
        event_id: int | None = None,
        made: list[int] | None = None,
    ) -> Any:
        """One write; then every read of the event it touched (``event_id``, else the event it
        made), or the database unchanged. The id of what it made goes to ``made``."""
        TRIED["writes"] += 1
        before = snapshot()
        client = self.clients[who]
        with TestCase.captureOnCommitCallbacks(execute=True):
            response = client.generic(method, url, data, content_type="application/json")
        shown = data if isinstance(data, bytes) else data[:300]
        self.log.append(f"{response.status_code} <- {method} {url} {shown!r}")
        if VERBOSE:
            print(self.log[-1][:300], response.content[:200])
        assert response.status_code < 500, self._trail(response)
        if response.status_code >= 400:
            TRIED["refused"] += 1
            changes = snapshot_changes(before, snapshot())
            assert not changes, f"{self._trail(response)}\nrefused, yet written: {changes}"
            return None
        TRIED["accepted"] += 1
        unclean = unclean_texts()
        assert not unclean, f"{self._trail(response)}\nstored as typed, not cleaned: {unclean}"
        if made is not None:
            made.append(response.json()["id"])
        self.read_everything(self.events[-1] if event_id is None else event_id)
        return response

    def read_everything(self, event_id: int) -> None:
        friendly = [
            Read(who, url.format(game))
            for game in self.friendly
            for who, url in (("api", "/api/games/{}/"), ("page", "/games/{}/"))
        ]
        for read in event_reads(event_id) + friendly:
            TRIED["reads"] += 1
            answer = self._get(read)
            assert answer.status_code in read.allowed, (
                f"{read.url} ({read.who}) answered {answer.status_code} after\n"
                + "\n".join(self.log[-5:])
                + f"\n{answer.content[:1000]!r}"
            )

    def _get(self, read: Read) -> Any:
        return self.clients[read.who].get(read.url)

    def _trail(self, response: Any) -> str:
        return "\n".join(self.log[-5:]) + f"\n{response.content[:1000]!r}"

    # --- what there is to act on --------------------------------------------------------------

    def target(self, data: Any) -> Event:
        """Mostly the event under play; now and then one the fuzzer created or imported."""
        ids = self.events if data.draw(st.integers(0, 3)) == 0 else [self.event.id]
        return Event.objects.get(id=data.draw(st.sampled_from(ids)))

    def pick(self, data: Any, plausible: list[Any], label: str) -> Any:
        """One of the ids that exist, now and then one that does not."""
        odd = st.sampled_from([0, 2**31, 999_999])
        if not plausible or data.draw(st.integers(0, 9)) == 0:
            return data.draw(odd, label=label)
        return data.draw(st.sampled_from(plausible), label=label)

    def entries(self, event: Event) -> list[int]:
        return list(Entry.objects.filter(event=event).values_list("id", flat=True))

    def pairings(self, event: Event) -> list[Pairing]:
        return list(Pairing.objects.filter(event=event).select_related("game").order_by("id"))

    def seated(self, pairing_id: int) -> list[int]:
        """The players of a pairing's two teams."""
        found = Pairing.objects.filter(id=pairing_id).values_list(
            "home_team__player_one_id",
            "home_team__player_two_id",
            "away_team__player_one_id",
            "away_team__player_two_id",
        )
        return [p for row in found for p in row if p is not None]

    def players(self, event: Event) -> list[int]:
        return self.spare + [
            p
            for e in Entry.objects.filter(event=event).select_related("team")
            if e.team
            for p in (e.team.player_one_id, e.team.player_two_id)
        ]

    @rule(data=st.data())
    def write(self, data: Any) -> None:
        name = data.draw(st.sampled_from(WEIGHTED), label="write")
        getattr(self, name)(data)

    # --- the event and its settings -----------------------------------------------------------

    def event_create(self, data: Any) -> None:
        fields = {
            "club": st.just(self.club.id),
            "name": NAME,
            "date": st.sampled_from(["2026-12-01", "2027-01-09"]),
            "kind": st.sampled_from(["tournament", "club_night"]),
            "format": st.sampled_from(["swiss", "round_robin", "single_elimination", "pools"]),
            "preset": st.sampled_from(["tournament", "standard", "les_rois", ""]),
            "rule_changes": RULE_CHANGES,
            "minutes_per_game": st.integers(1, 90),
            "rounds": st.integers(1, 5),
            "pool_count": st.integers(2, 4),
            "forfeit_winner_score": st.integers(10, 52),
        }
        self.send("api", "POST", "/api/events/", data.draw(body(fields)), made=self.events)

    def event_settings(self, data: Any) -> None:
        event = self.target(data)
        fields = {
            "name": NAME,
            "venue": st.one_of(st.just(""), NAME),
            "date": st.sampled_from(["2026-11-28", "2026-11-29"]),
            "rounds": st.integers(1, 6),
            "minutes_per_game": st.integers(1, 90),
            "tiebreaks": st.lists(
                st.sampled_from(["wins", "point_difference", "buchholz", "seed"]), max_size=3
            ),
            "forfeit_winner_score": st.integers(-52, 52),
            "forfeit_loser_score": st.integers(-52, 52),
            "verification": st.booleans(),
            "public_pages": st.sampled_from([True, True, False]),
            "check_in_required": st.booleans(),
        }
        self.send(
            "api", "PATCH", f"/api/events/{event.id}/", data.draw(body(fields)), event_id=event.id
        )

    def event_rules(self, data: Any) -> None:
        # Mostly an event the fuzzer made: the rules of one whose games started are fixed.
        made = self.events[1:] if data.draw(st.booleans()) else []
        event = (
            Event.objects.get(id=data.draw(st.sampled_from(made))) if made else self.target(data)
        )
        changes = RULE_CHANGES
        self.send(
            "api",
            "PATCH",
            f"/api/events/{event.id}/rules/",
            data.draw(body({"changes": changes})),
            event_id=event.id,
        )

    def event_import(self, data: Any) -> None:
        """The event's export sent back, one value in it replaced by an extreme."""
        exported = self.clients["api"].get(f"/api/events/{self.event.id}/export/")
        assert exported.status_code == 200
        document = exported.json()
        if data.draw(st.booleans(), label="mutate"):
            _replace_one(document, data)
        self.send("api", "POST", "/api/events/import/", to_json(document), made=self.events)

    def generate(self, data: Any) -> None:
        event = self.target(data)
        self.send("api", "POST", f"/api/events/{event.id}/generate/", "", event_id=event.id)

    # --- entries --------------------------------------------------------------------------------

    def entry_add(self, data: Any) -> None:
        event = self.target(data)
        players = st.sampled_from(self.spare)
        fields = {
            "player_one": players,
            "player_two": players,
            "player": players,
            "name": st.one_of(st.just(""), NAME),
            "seed": st.one_of(st.none(), st.integers(5, 400)),
            "rating": st.floats(0, 3000),
        }
        url = f"/api/events/{event.id}/entries/"
        self.send("api", "POST", url, data.draw(body(fields)), event_id=event.id)

    def entry_change(self, data: Any) -> None:
        event = self.target(data)
        entry = self.pick(data, self.entries(event), "entry")
        action = data.draw(st.sampled_from(["", "check-in/", "withdraw/", "reinstate/", ""]))
        url = f"/api/events/{event.id}/entries/{entry}/{action}"
        options: dict[str, dict[str, st.SearchStrategy[Any]]] = {
            "": {"name": NAME, "seed": st.integers(1, 9), "rating": st.floats(0, 99)},
            "check-in/": {"checked_in": st.booleans()},
            "withdraw/": {"reason": REASON},
            "reinstate/": {},
        }
        fields = options[action]
        method = "PATCH" if action == "" else "POST"
        self.send("api", method, url, data.draw(body(fields)), event_id=event.id)

    def entries_csv(self, data: Any) -> None:
        event = self.target(data)
        cell = mixed(st.one_of(NAME, st.sampled_from(["Ann", "3", "1500"]))).map(_cell)
        lines = data.draw(st.lists(st.lists(cell, min_size=2, max_size=5), max_size=4))
        header = "player_one;player_two;team;seed;rating"
        text = "\n".join([header, *(";".join(line) for line in lines)]) + "\n"
        fields = {"csv": st.just(text), "dry_run": st.booleans()}
        url = f"/api/events/{event.id}/entries/import/"
        self.send("api", "POST", url, data.draw(body(fields)), event_id=event.id)

    # --- rounds, pairings, tables -------------------------------------------------------------

    def round_action(self, data: Any) -> None:
        event = self.target(data)
        numbers = list(Round.objects.filter(event=event).values_list("number", flat=True))
        number = self.pick(data, numbers, "round")
        action = data.draw(st.sampled_from(ROUND_ACTIONS))
        entries = st.sampled_from(self.entries(event) or [1])
        pairings = st.sampled_from([p.id for p in self.pairings(event)] or [1])
        options: dict[str, dict[str, st.SearchStrategy[Any]]] = {
            "add-minutes": {"minutes": st.integers(-10, 30)},
            "swap-teams": {"first": entries, "second": entries},
            "swap-tables": {"first": pairings, "second": pairings},
        }
        fields = options.get(action, {})
        url = f"/api/events/{event.id}/rounds/{number}/{action}/"
        self.send("api", "POST", url, data.draw(body(fields)), event_id=event.id)

    def pairing_action(self, data: Any) -> None:
        event = self.target(data)
        pairing = self.pick(data, [p.id for p in self.pairings(event)], "pairing")
        action = data.draw(st.sampled_from(PAIRING_ACTIONS))
        points = st.integers(-60, 60)
        options: dict[str, dict[str, st.SearchStrategy[Any]]] = {
            "forfeit": {"forfeiting": st.sampled_from(["home", "away"]), "reason": REASON},
            "adjust": {
                "winner": st.sampled_from(["home", "away"]),
                "home_points": points,
                "away_points": points,
                "reason": REASON,
                "rollback": st.booleans(),
            },
            "late": {"late": st.booleans()},
            "bye-points": {"points_for": points, "points_against": points},
            "substitute": {
                "replaced": st.sampled_from(self.seated(pairing) or self.players(event)),
                "substitute": st.sampled_from(self.spare),
                "substitute_name": st.one_of(st.just(""), NAME),
                "reason": REASON,
            },
            "clock": {
                "action": st.sampled_from(["start", "pause", "resume", "add"]),
                "minutes": st.integers(-10, 30),
            },
        }
        fields = options[action]
        url = f"/api/events/{event.id}/pairings/{pairing}/{action}/"
        self.send("api", "POST", url, data.draw(body(fields)), event_id=event.id)

    def pairing_correct_or_rollback(self, data: Any) -> None:
        event = self.target(data)
        played = [p for p in self.pairings(event) if p.game and p.game.hand_count]
        pairing = self.pick(data, [p.id for p in played or self.pairings(event)], "pairing")
        url = f"/api/events/{event.id}/pairings/{pairing}/"
        if data.draw(st.booleans(), label="correct"):
            count = next((p.game.hand_count for p in played if p.game and p.id == pairing), 1)
            numbers = st.one_of(st.integers(1, count), st.sampled_from([0, count + 1, 40000]))
            number = data.draw(numbers, label="hand number")
            fields = {**_entry_strategies(data), "reason": REASON, "rollback": st.booleans()}
            self.send(
                "api", "PUT", f"{url}hands/{number}/", data.draw(body(fields)), event_id=event.id
            )
        else:
            fields = {"confirm": st.booleans(), "reason": REASON}
            self.send("api", "POST", f"{url}rollback/", data.draw(body(fields)), event_id=event.id)

    def table_change(self, data: Any) -> None:
        event = self.target(data)
        tables = list(Table.objects.filter(event=event).values_list("id", flat=True))
        action = data.draw(st.sampled_from(["", "revoke/", "renew/", "renew/"]))
        url = f"/api/events/{event.id}/tables/"
        if action:
            url += f"{self.pick(data, tables, 'table')}/{action}"
        self.send("api", "POST", url, "", event_id=event.id)

    # --- games and hands ----------------------------------------------------------------------

    def game_of(self, data: Any, event: Event) -> Game | None:
        games = [p.game for p in self.pairings(event) if p.game is not None]
        live = [g for g in games if g.status != "finished"] or games
        if not live:
            return None
        return cast(Game, data.draw(st.sampled_from(live), label="game"))

    def api_hand(self, data: Any) -> None:
        event = self.target(data)
        game = self.game_of(data, event)
        if self.friendly and data.draw(st.integers(0, 4)) == 0:
            game = Game.objects.get(id=data.draw(st.sampled_from(self.friendly)))
        game_id = game.id if game else data.draw(st.sampled_from([0, 2**31]))
        number = game.hand_count + 1 if game else 1
        hand = data.draw(hand_fields(), label="hand")
        fields = {k: st.just(v) for k, v in hand.items()}
        fields |= {"client_id": UUIDS, "number": st.just(number), "entered_by_seat": SEAT}
        url = f"/api/games/{game_id}/hands/"
        self.send("api", "POST", url, data.draw(body(fields)), event_id=event.id)

    def api_game_action(self, data: Any) -> None:
        event = self.target(data)
        game = self.game_of(data, event)
        game_id = game.id if game else 2**31
        action = data.draw(st.sampled_from([*GAME_ACTIONS, "correct"]))
        if action == "correct":
            number = data.draw(st.sampled_from([1, (game.hand_count if game else 1) or 1, 0]))
            fields = {**_entry_strategies(data), "reason": REASON}
            fields["version"] = st.just(game.version if game else 1)
            url = f"/api/games/{game_id}/hands/{number}/"
            self.send("api", "PUT", url, data.draw(body(fields)), event_id=event.id)
            return
        options: dict[str, dict[str, st.SearchStrategy[Any]]] = {
            "undo": {"number": st.just(game.hand_count if game else 1)},
            "forfeit": {"team": SIDE, "reason": REASON},
            "add-minutes": {"minutes": st.integers(-10, 30)},
        }
        fields = options.get(action, {})
        url = f"/api/games/{game_id}/{action}/"
        self.send("api", "POST", url, data.draw(body(fields)), event_id=event.id)

    def table_write(self, data: Any) -> None:
        """The table page's endpoints, from a device that scanned the table's code, or from the
        organiser's (who may open any table of a tournament)."""
        event = self.target(data)
        at_tables = [p for p in self.pairings(event) if p.table_id and p.game is not None]
        if not at_tables:
            return
        playing = [p for p in at_tables if p.game and p.game.status != "finished"]
        pairing = data.draw(st.sampled_from(playing or at_tables), label="table's pairing")
        game = cast(Game, pairing.game)
        what = data.draw(st.sampled_from(TABLE_WRITES), label="endpoint")
        hands = Hand.with_pending.filter(game=game).order_by("number")
        waiting: list[tuple[int, Any]] = [
            (h.number, h.client_id) for h in hands if h.status == "pending"
        ]
        last: list[tuple[int, Any]] = [
            (h.number, h.client_id) for h in hands if h.status != "pending"
        ][-1:]
        choices = (waiting if what in ("confirm", "discard") else last) or [(game.hand_count, None)]
        number, client = data.draw(st.sampled_from(choices), label="hand")
        fields: dict[str, st.SearchStrategy[Any]] = {"game_id": st.just(game.id)}
        if what in ("hands", "preview"):
            fields |= {
                "entry": hand_fields(),
                "client_id": UUIDS,
                "number": st.just(game.hand_count + 1),
                "entered_by_seat": SEAT,
            }
        elif what == "confirm":
            fields |= {"number": st.just(number), "seat": SEAT}
        elif what in ("discard", "undo"):
            fields |= {
                "number": st.just(number),
                "client_id": st.just(str(client)) if client else UUIDS,
                "reason": REASON,
            }
        else:
            fields |= {"team": SIDE}
        who = "page"
        code = Table.objects.get(id=pairing.table_id).code
        if code and data.draw(st.booleans(), label="by the table's code"):
            device = Client()
            assert device.get(f"/t/{code}/").status_code == 302
            self.clients["device"] = device
            who = "device"
        url = f"/table/{pairing.table_id}/{what}"
        self.send(who, "POST", url, data.draw(body(fields)), event_id=event.id)

    def team_create(self, data: Any) -> None:
        players = st.sampled_from(self.spare)
        fields = {
            "name": st.one_of(st.sampled_from(["", "x" * 160]), NAME),
            "club": st.just(self.club.id),
            "player_one_id": players,
            "player_two_id": players,
        }
        self.send("api", "POST", "/api/teams/", data.draw(body(fields)), event_id=self.event.id)

    def game_create(self, data: Any) -> None:
        """A game of two of the club's teams outside the event, its rules changed at will."""
        teams = st.sampled_from(
            list(Entry.objects.filter(event=self.event).values_list("team_id", flat=True))
        )
        fields = {
            "club": st.just(self.club.id),
            "ns_team": teams,
            "ew_team": teams,
            "first_dealer": SEAT,
            "preset": st.sampled_from(["", "tournament", "club", "saskatchewan", "joffre"]),
            "rules": RULE_CHANGES,
            "from_paper": st.booleans(),
        }
        url = "/api/games/"
        self.send(
            "api", "POST", url, data.draw(body(fields)), event_id=self.event.id, made=self.friendly
        )


def _entry_strategies(data: Any) -> dict[str, st.SearchStrategy[Any]]:
    hand = data.draw(hand_entry(), label="corrected hand")
    return {name: st.just(value) for name, value in hand.items()}


def _cell(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value) if value is not None else ""
    return text.replace(";", ",").replace("\n", " ")


def _replace_one(document: Any, data: Any) -> None:
    """One value somewhere in the export, replaced by an extreme."""
    node = document
    for _ in range(6):
        keys = list(node.keys()) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            return
        key = data.draw(st.sampled_from(keys), label="path")
        child = node[key]
        if not isinstance(child, dict | list) or not child or data.draw(st.integers(0, 3)) == 0:
            node[key] = data.draw(EXTREME, label="replaced by")
            return
        node = child


def test_nothing_accepted_breaks_a_read_and_nothing_refused_writes() -> None:
    TRIED.clear()
    run_state_machine_as_test(
        EventFuzz if RANDOM else seed(SEED)(EventFuzz),
        settings=settings(
            max_examples=RUNS,
            stateful_step_count=STEPS,
            deadline=None,
            database=None,
            phases=[Phase.explicit, Phase.generate, Phase.shrink] if RANDOM else [Phase.generate],
            suppress_health_check=list(HealthCheck),
        ),
    )
    print(f"\nstateful fuzz tried: {dict(TRIED)}")
    assert TRIED["accepted"] and TRIED["refused"]  # both kinds of write were checked
