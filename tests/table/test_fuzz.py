"""The table page's JSON endpoints (preview, hands, confirm, discard, undo, acknowledge) are not
in the API's schema, so schemathesis never reaches them: this is their fuzz.

A device that scanned the table's code sends a few requests in a row. Each body is either what
the page would send for the table as it stands (the next hand's number, the pending hand's id,
the other partnership's seat), with entries the rules may accept or refuse, or such a body with
its fields replaced by extremes: 1e999, -1e999, NaN, huge integers, floats, booleans, strings
of other digits, long and odd Unicode (bidi overrides, a lone surrogate), nested arrays,
objects where numbers go, missing fields; or a body that is not JSON at all.

Ids of another club's table (its game, its hand's client id) are among the values drawn.
Whatever is sent: never a 5xx; a refusal is a 4xx whose ``detail`` is a sentence; a refused
request and every preview leave the table's rows as they were; and after each run of
requests the table can still record a hand (unless the game is over or waits for a
confirmation); the other club's table is as it was.

Bounded for CI: ``KAISER_FUZZ_EXAMPLES`` runs (40) of up to five requests, derandomized;
``KAISER_FUZZ_RANDOM=1`` draws new ones. The number of requests is printed (``-s``)."""

from __future__ import annotations

import json
import os
import uuid
from collections import Counter
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from scoring.choices import GameStatus
from scoring.models import Game, GameChange, Hand
from tests.limits.fuzz_values import Raw, to_json
from tests.scoring.hands import EW, NS, N, played, record
from tests.table.helpers import Setup, make_table, opened
from tournaments.models import Pairing

pytestmark = [pytest.mark.django_db, pytest.mark.long]

EXAMPLES = int(os.environ.get("KAISER_FUZZ_EXAMPLES", "40"))
RANDOM = os.environ.get("KAISER_FUZZ_RANDOM") == "1"
ENDPOINTS = ["preview", "hands", "confirm", "discard", "undo", "acknowledge"]
WEIGHTED = ["hands", "hands", "preview", *ENDPOINTS]  # hands first: most state comes from them
SENT: Counter[str] = Counter()


ODD_NUMBERS = [
    Raw("1e999"),
    Raw("-1e999"),
    Raw("NaN"),
    Raw("Infinity"),
    Raw("-Infinity"),
    Raw("-0"),
    Raw("1E400"),
    Raw("0.0000000000000000000000001"),
    10**30,
    -(10**30),
    2**63,
    2**31,
    2**15,
    -1,
    1.5,
    4.0,
    True,
    False,
    None,
]
ODD_TEXT = [
    "",
    " ",
    "1",
    "١٢",
    "²",
    "１",
    "ns",
    "ew",
    "north",
    "x" * 10_000,
    "\u202eon\u202c",
    "\u0000",
    "\ud800",
    "😀" * 50,
    "<script>alert(1)</script>",
    "'; DROP TABLE hand; --",
]
ODD_SHAPES = [
    [],
    {},
    [1, 2],
    {"a": 1},
    Raw("[" * 40 + "]" * 40),
    Raw('{"a":' * 40 + "1" + "}" * 40),
]
odd = st.sampled_from(ODD_NUMBERS + ODD_TEXT + ODD_SHAPES) | st.integers() | st.floats()
MISSING = object()


@st.composite
def rule_abiding_entry(draw: Any) -> dict[str, Any]:
    """A played hand whose cards and tricks agree (the rules still judge the bid)."""
    tricks = draw(st.integers(0, 8))
    bidder = draw(st.integers(0, 3))
    bidders, others = ("ns", "ew") if bidder % 2 == 0 else ("ew", "ns")
    sides = [bidders] if tricks == 8 else [others] if tricks == 0 else [bidders, others]
    no_trump = draw(st.booleans())
    return {
        "bidder": bidder,
        "bid": draw(st.integers(7, 12)),
        "contract": "no_trump" if no_trump else "trump",
        "trump": ""
        if no_trump
        else draw(st.sampled_from(["hearts", "spades", "clubs", "diamonds"])),
        "bidding_team_tricks": tricks,
        "five_hearts": draw(st.sampled_from(sides)),
        "three_spades": draw(st.sampled_from(sides)),
    }


def entry_strategy() -> st.SearchStrategy[dict[str, Any]]:
    """Entries a scorekeeper could type: the rules accept many and refuse the rest."""
    typed = st.fixed_dictionaries(
        {
            "bidder": st.integers(0, 3),
            "bid": st.integers(4, 12),
            "contract": st.sampled_from(["trump", "no_trump", "kaiser"]),
            "trump": st.sampled_from(["hearts", "spades", "clubs", "diamonds", ""]),
            "bidding_team_tricks": st.integers(0, 8),
            "five_hearts": st.sampled_from(["ns", "ew", ""]),
            "three_spades": st.sampled_from(["ns", "ew", ""]),
        },
        optional={
            "forced": st.booleans(),
            "kind": st.sampled_from(["played", "misdeal", "forced"]),
            "bidder_tricks": st.integers(0, 8),
        },
    )
    return rule_abiding_entry() | typed


def as_the_page_would(setup: Setup, endpoint: str, draw: Any) -> dict[str, Any]:
    """The body the page sends for the table as it stands."""
    game = Game.objects.get(id=setup.game.id)
    pending = Hand.with_pending.filter(game=game, status="pending").first()
    last = Hand.with_pending.filter(game=game).order_by("-number").first()
    body: dict[str, Any] = {"game_id": game.id}
    if endpoint in ("preview", "hands"):
        body["entry"] = draw(entry_strategy())
        body["number"] = game.hand_count + 1
        body["client_id"] = str(uuid.uuid4())
        if setup.event.verification or draw(st.booleans()):
            body["entered_by_seat"] = draw(st.integers(0, 3))
    elif endpoint in ("confirm", "discard"):
        target = pending or last
        body["number"] = target.number if target else 1
        body["client_id"] = str(target.client_id if target else uuid.uuid4())
        entered = pending.entered_by_seat if pending and pending.entered_by_seat is not None else 0
        body["seat"] = draw(st.sampled_from([(entered + 1) % 4, (entered + 3) % 4, entered]))
        body["reason"] = draw(st.sampled_from(["wrong bid", ""]))
    elif endpoint == "undo":
        body["number"] = last.number if last else 1
        body["client_id"] = str(last.client_id if last else uuid.uuid4())
    else:
        body["team"] = draw(st.sampled_from(["ns", "ew"]))
    return body


ELSEWHERE: dict[str, list[Any]] = {}  # another club's table: its game's id, its hands' ids


def spoil(body: dict[str, Any], draw: Any) -> dict[str, Any]:
    """Replace or drop some of the body's fields, the entry's too; a game id or a hand's id
    may be another club's."""
    spoiled = dict(body)
    keys = ["game_id", "number", "client_id", "seat", "entered_by_seat", "team", "reason", "entry"]
    for key in draw(st.lists(st.sampled_from(keys), min_size=1, max_size=3, unique=True)):
        theirs = ELSEWHERE.get(key, [])
        value = draw(
            st.one_of(odd, st.just(MISSING), *([st.sampled_from(theirs)] if theirs else []))
        )
        if value is MISSING:
            spoiled.pop(key, None)
        else:
            spoiled[key] = value
    entry = spoiled.get("entry")
    if isinstance(entry, dict) and draw(st.booleans()):
        entry = dict(entry)
        names = ["bidder", "bid", "contract", "trump", "bidding_team_tricks", "five_hearts"]
        names += ["three_spades", "bidder_tricks", "forced", "kind", "misdeal_reason"]
        for key in draw(st.lists(st.sampled_from(names), min_size=1, max_size=3, unique=True)):
            value = draw(st.one_of(odd, st.just(MISSING)))
            if value is MISSING:
                entry.pop(key, None)
            else:
                entry[key] = value
        spoiled["entry"] = entry
    return spoiled


def request_text(setup: Setup, endpoint: str, draw: Any) -> str | bytes:
    kind = draw(st.sampled_from(["page", "page", "spoiled", "spoiled", "spoiled", "junk"]))
    if kind == "junk":
        return draw(
            st.sampled_from([b"", b"{", b"\xff\xfe\x00", b"null", b"[]", b'"text"', b"1e999"])
            | st.binary(max_size=64)
        )
    body = as_the_page_would(setup, endpoint, draw)
    return to_json(spoil(body, draw) if kind == "spoiled" else body)


def table_rows(setup: Setup) -> dict[str, Any]:
    game_id = setup.game.id
    return {
        "game": list(Game.objects.filter(id=game_id).values()),
        "hands": list(Hand.with_pending.filter(game_id=game_id).order_by("number").values()),
        "changes": list(GameChange.objects.filter(game_id=game_id).order_by("id").values()),
        "pairing": list(Pairing.objects.filter(id=setup.pairing.id).values()),
    }


def is_a_sentence(text: Any) -> bool:
    return (
        isinstance(text, str)
        and len(text.split()) >= 3
        and (text[0].isupper() or text[0] in "\"'«“")  # DRF quotes the value it refuses
        and text.rstrip()[-1] in ".?!)"
    )


SURE_HAND = {  # East bids 7 in hearts; East–West take 7 tricks and the 5♥ (12), North–South -2
    "bidder": 1,
    "bid": 7,
    "contract": "trump",
    "trump": "hearts",
    "bidding_team_tricks": 7,
    "five_hearts": "ew",
    "three_spades": "ns",
}


def still_records(setup: Setup, device: Client) -> None:
    game = Game.objects.get(id=setup.game.id)
    if (
        game.status != GameStatus.IN_PROGRESS
        or Hand.with_pending.filter(game=game, status="pending").exists()
    ):
        return
    body = {
        "game_id": game.id,
        "number": game.hand_count + 1,
        "client_id": str(uuid.uuid4()),
        "entry": SURE_HAND,
        "entered_by_seat": 1,  # East: where hands are verified, West or East confirm it
    }
    answer = device.post(
        f"/table/{setup.table.id}/hands", json.dumps(body), content_type="application/json"
    )
    assert answer.status_code == 200, answer.content[:500]


BOUNDED = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=not RANDOM,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)


@pytest.mark.parametrize("verification", [False, True], ids=["recorded", "verified"])
def test_the_table_endpoints_take_anything_without_a_500(verification: bool) -> None:
    setup = make_table(verification=verification)
    device = opened(setup)
    elsewhere = make_table(verification=verification)  # another club's, with a hand
    record(elsewhere.game, played(N, 7, 7, NS, EW))
    theirs = Hand.with_pending.get(game=elsewhere.game)
    ELSEWHERE.update(game_id=[elsewhere.game.id], client_id=[str(theirs.client_id)], number=[1])
    untouched = table_rows(elsewhere)
    SENT.clear()

    @BOUNDED
    @given(data=st.data())
    def run(data: st.DataObject) -> None:
        saved = transaction.savepoint()  # each run starts from the same table
        try:
            for _ in range(data.draw(st.integers(1, 5), label="requests")):
                endpoint = data.draw(st.sampled_from(WEIGHTED), label="endpoint")
                text = request_text(setup, endpoint, data.draw)
                before = table_rows(setup)
                answer = device.generic(
                    "POST",
                    f"/table/{setup.table.id}/{endpoint}",
                    text,
                    content_type="application/json",
                )
                SENT["requests"] += 1
                SENT[f"{endpoint} {answer.status_code}"] += 1
                said = f"{endpoint} {text[:300]!r} -> {answer.status_code} {answer.content[:300]!r}"
                assert answer.status_code < 500, said
                assert answer["Content-Type"] == "application/json", said
                if answer.status_code >= 400:
                    assert is_a_sentence(answer.json().get("detail")), said
                    assert table_rows(setup) == before, f"refused, yet written: {said}"
                elif endpoint == "preview":
                    assert table_rows(setup) == before, f"a preview wrote: {said}"
            still_records(setup, device)
        finally:
            transaction.savepoint_rollback(saved)

    run()
    assert table_rows(elsewhere) == untouched, "a write reached another club's table"
    print(f"\ntable fuzz ({'verified' if verification else 'recorded'}): {dict(SENT)}")
    assert SENT["requests"] >= EXAMPLES
    accepted = sum(n for key, n in SENT.items() if key.endswith(" 200"))
    assert accepted > 0  # bodies the page would send got through, not only refusals
