"""The table page in Debian's chromium, as scorekeepers use it: a whole game entered to the
target, a refusal, verification by the other partnership, undo, three hands entered offline
and sent once each when the connection returns, the clock running out mid-hand, another
table's code, and the page in French.

Expected scores are worked out by hand from docs/rules.md, "Scoring a hand" (tournament
preset: a trick 1, the 5♥ +5, the 3♠ −3; a made bid adds the points taken, doubled at
no-trump; a failed bid subtracts the bid; target 52, bid-out at 47)."""

from __future__ import annotations

import json
import os
import re
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

if os.environ.get("CI") != "true":  # in CI a missing Playwright fails the run (conftest.py)
    pytest.importorskip("playwright.sync_api")

from playwright.sync_api import expect

from scoring.models import Game, Hand
from scoring.rules import Contract, Side, Suit
from tests.scoring.hands import EW, NS, E, N, S, W, played, record
from tests.table.helpers import add_table, make_event, make_table
from tests.table.network import HallNetwork
from tests.table.tablepage import Scorekeeper

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OUT = Path(__file__).resolve().parents[2] / "bench" / "_out"

# (bidder, bid, contract, tricks, 5♥, 3♠) → (N-S, E-W) after the hand; dealer N first.
WHOLE_GAME = [
    (("E", 7, "hearts", 5, "ew", "ns"), (0, 10)),  # E-W 5 + 5♥ = 10, made: +10
    (("S", 8, "spades", 6, "ns", "ew"), (11, 9)),  # N-S 11 made; E-W 2 − 3 = −1
    (("W", 7, "no_trump", 5, "ew", "ns"), (11, 29)),  # E-W 10 at no-trump: +20
    (("N", 9, "clubs", 4, "ns", "ew"), (20, 30)),  # N-S 4 + 5 = 9 made; E-W 4 − 3 = +1
    (("E", 10, "diamonds", 6, "ns", "ew"), (27, 20)),  # E-W 6 − 3 = 3, set: −10; N-S +7
    (("S", 9, "no_trump", 7, "ns", "ew"), (51, 18)),  # N-S 12 at no-trump: +24; E-W −2
    (("N", 7, "clubs", 5, "ns", "ew"), (61, 18)),  # N-S 10 made: 61 ≥ 52, N-S win
]


def test_a_whole_game_to_the_target(tablet: Any) -> None:
    setup = make_table()
    page = tablet.new_page()
    page.goto(f"/t/{setup.code}/")
    keeper = Scorekeeper(page)
    seconds = []
    taps = []
    for number, (hand, (ns, ew)) in enumerate(WHOLE_GAME, start=1):
        assert keeper.hand_number() == number
        started, before = time.perf_counter(), keeper.taps
        keeper.hand(*hand)
        keeper.settled()
        expect(page.locator("#score-ns")).to_have_text(str(ns))
        seconds.append(time.perf_counter() - started)
        taps.append(keeper.taps - before)
        assert (keeper.score("ns"), keeper.score("ew")) == (ns, ew)
        if number < len(WHOLE_GAME):
            expect(page.locator("#entry")).to_be_visible()
    end = page.locator("#end")
    end.wait_for()
    assert "North–South won: reached the target." in end.inner_text()
    assert "61" in end.inner_text() and "18" in end.inner_text()
    assert page.locator("#sheet-body tr").count() == 7
    game = Game.objects.get(id=setup.game.id)
    assert (game.status, game.winner, game.end_reason) == ("finished", "ns", "target")
    assert (game.ns_score, game.ew_score, game.hand_count) == (61, 18, 7)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "table_taps.json").write_text(
        json.dumps({"hands": len(taps), "taps_per_hand": taps, "seconds_per_hand": seconds})
    )


def test_an_impossible_hand_is_refused_with_its_message(tablet: Any) -> None:
    setup = make_table()
    page = tablet.new_page()
    page.goto(f"/t/{setup.code}/")
    keeper = Scorekeeper(page)
    # East-West bid and take no tricks, yet the 5♥ is entered as theirs.
    keeper.hand("E", 7, "clubs", 0, "ew", "ew", record=False)
    refusal = page.locator("#preview .refusal")
    expect(refusal).to_contain_text(
        "East–West took no tricks, so it cannot have taken the 5♥: "
        "North–South took all eight tricks and both cards."
    )
    expect(page.locator("#record")).to_be_disabled()
    # The server refuses it again if it is sent anyway.
    answer = page.evaluate(
        """async (gameId) => {
            const token = document.cookie.match(/csrftoken=([^;]+)/)[1];
            const response = await fetch("hands", {method: "POST", headers: {
                "Content-Type": "application/json", "X-CSRFToken": token}, body: JSON.stringify({
                game_id: gameId, number: 1, client_id: crypto.randomUUID(), entry: {
                bidder: 1, bid: 7, contract: "trump", trump: "clubs", bidding_team_tricks: 0,
                five_hearts: "ew", three_spades: "ew"}})});
            return {status: response.status, body: await response.json()};
        }""",
        setup.game.id,
    )
    assert answer["status"] == 400
    assert [r["code"] for r in answer["body"]["refusals"]] == [
        "card_without_tricks",
        "card_without_tricks",
    ]
    assert Hand.with_pending.filter(game=setup.game).count() == 0
    # Put right (North-South took the 5♥ and the 3♠), it is accepted.
    keeper.pick("five_hearts", "ns")
    keeper.pick("three_spades", "ns")
    expect(page.locator("#preview .preview-body")).to_contain_text("North–South")
    keeper.record()
    keeper.settled()
    expect(page.locator("#score-ew")).to_have_text("\u22127")
    expect(page.locator("#score-ns")).to_have_text("10")


def test_verification_by_the_other_partnership(tablet: Any) -> None:
    setup = make_table(verification=True)
    page = tablet.new_page()
    page.goto(f"/t/{setup.code}/")
    keeper = Scorekeeper(page)
    expect(page.locator("#record")).to_be_disabled()
    keeper.tap("#entry input[name=keeper][value='0'] + span")  # North keeps score
    expect(page.locator("#keeper-name")).to_have_text("North")
    keeper.hand("E", 7, "hearts", 5, "ew", "ns")
    keeper.settled()
    pending = page.locator("#pending")
    expect(pending).to_contain_text("Hand 1: to be confirmed")
    expect(pending).to_contain_text("A player of East–West checks the hand")
    hand = Hand.with_pending.get(game=setup.game)
    assert (hand.status, hand.entered_by_seat) == ("pending", 0)
    game = Game.objects.get(id=setup.game.id)
    assert (game.hand_count, game.ew_score) == (0, 0)
    expect(page.locator("#score-ew")).to_have_text("0")

    # Only East and West are offered: South is North's partner.
    seats = page.locator("#pending [data-action=confirm]")
    expect(seats).to_have_count(2)
    assert [seats.nth(i).get_attribute("data-seat") for i in range(2)] == ["1", "3"]
    assert Hand.with_pending.get(game=setup.game).status == "pending"

    # East confirms: the hand counts.
    keeper.tap("#pending [data-action=confirm][data-seat='1']")
    keeper.settled()
    expect(page.locator("#score-ew")).to_have_text("10")
    hand.refresh_from_db()
    assert (hand.status, hand.confirmed_by_seat) == ("confirmed", 1)
    assert Game.objects.get(id=setup.game.id).ew_score == 10

    # The next one is not right: sent back, and the form holds it to be put right.
    keeper.hand("S", 8, "spades", 6, "ns", "ew")
    keeper.settled()
    expect(page.locator("#pending")).to_contain_text("Hand 2: to be confirmed")
    keeper.tap("#pending [data-action=discard]")
    keeper.settled()
    expect(page.locator("#entry")).to_be_visible()
    assert page.locator("#entry input[name=bid][value='8']").is_checked()
    assert page.locator("#entry input[name=tricks][value='6']").is_checked()
    assert Hand.with_pending.filter(game=setup.game).count() == 1  # hand 1 only
    keeper.pick("tricks", 7)
    keeper.record()
    keeper.settled()
    keeper.tap("#pending [data-action=confirm][data-seat='3']")
    keeper.settled()
    expect(page.locator("#score-ns")).to_have_text("12")  # 7 + 5 = 12, made
    assert Game.objects.get(id=setup.game.id).hand_count == 2


def test_undo_the_last_hand_until_the_next_one(tablet: Any) -> None:
    setup = make_table()
    page = tablet.new_page()
    page.goto(f"/t/{setup.code}/")
    keeper = Scorekeeper(page)
    keeper.hand("E", 7, "hearts", 5, "ew", "ns")
    keeper.settled()
    expect(page.locator("#score-ew")).to_have_text("10")
    undo = page.locator("[data-action=undo]")
    expect(undo).to_have_text("Undo hand 1")
    keeper.tap("[data-action=undo]")
    expect(undo).to_have_text("Tap again to undo hand 1")
    keeper.tap("[data-action=undo]")
    keeper.settled()
    expect(page.locator("#score-ew")).to_have_text("0")
    expect(page.locator("#hand-number")).to_have_text("1")
    assert Game.objects.get(id=setup.game.id).hand_count == 0

    keeper.hand("E", 7, "hearts", 6, "ew", "ns")
    keeper.settled()
    keeper.hand("S", 8, "spades", 6, "ns", "ew")
    keeper.settled()
    expect(undo).to_have_text("Undo hand 2")  # only the last one
    keeper.tap("[data-action=undo]")
    keeper.tap("[data-action=undo]")
    keeper.settled()
    game = Game.objects.get(id=setup.game.id)
    assert (game.hand_count, game.ns_score, game.ew_score) == (1, -1, 11)  # 2 − 3; 6 + 5
    expect(page.locator("#score-ns")).to_have_text("\u22121")


OFFLINE_HANDS = [
    (("E", 7, "hearts", 5, "ew", "ns"), (0, 10)),
    (("S", 8, "spades", 6, "ns", "ew"), (11, 9)),
    (("W", 7, "no_trump", 5, "ew", "ns"), (11, 29)),
]


def wait_until(page: Any, check: Any, what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"Timed out waiting for {what}")
        page.wait_for_timeout(50)


def test_three_hands_entered_offline_are_recorded_once_in_order(
    tablet: Any, network: HallNetwork
) -> None:
    setup = make_table()
    page = tablet.new_page()
    page.goto(f"/t/{setup.code}/")
    page_url = page.url
    # The service worker (localhost is a secure context) has taken the page and kept a copy.
    wait_until(
        page,
        lambda: page.evaluate(
            "async (url) => !!navigator.serviceWorker.controller && !!(await caches.match(url))",
            page_url,
        ),
        "the service worker to control and keep the page",
    )
    keeper = Scorekeeper(page)

    # The hall's Wi-Fi drops: the tablet says it is offline, and nothing reaches the server
    # (cut at the server too, since the browser's offline switch misses a worker's requests).
    network.down = True
    tablet.set_offline(True)
    for number, (hand, _scores) in enumerate(OFFLINE_HANDS, start=1):
        expect(page.locator("#hand-number")).to_have_text(str(number))
        keeper.hand(*hand)
    expect(page.locator("#queue-count")).to_have_text("3 hands waiting to be sent")
    expect(page.locator("#net-text")).to_have_text("Offline: hands are kept on this device")
    expect(page.locator("#sheet-body tr.queued")).to_have_count(3)
    assert Hand.with_pending.filter(game=setup.game).count() == 0  # the server has nothing new

    # Reloaded while still offline: the worker serves the kept page; the hands are still there.
    page.reload()
    expect(page.locator("#queue-count")).to_have_text("3 hands waiting to be sent")
    expect(page.locator("#sheet-body tr.queued")).to_have_count(3)
    expect(page.locator("#hand-number")).to_have_text("4")
    assert len(keeper.outbox()) == 3
    assert Hand.with_pending.filter(game=setup.game).count() == 0
    client_ids = [op["body"]["client_id"] for op in keeper.outbox()]

    # Back online. The first hand reaches the server but its answer is lost on the way back:
    # sent again with the same client id, it is recognised, not recorded twice.
    network.lose_next_answer_to("/hands")
    network.down = False
    tablet.set_offline(False)
    keeper.settled(timeout=20)
    assert network.lost_answers
    expect(page.locator("#score-ew")).to_have_text("29")
    expect(page.locator("#score-ns")).to_have_text("11")
    hands = list(Hand.objects.filter(game=setup.game).order_by("number"))
    assert [h.number for h in hands] == [1, 2, 3]
    assert [str(h.client_id) for h in hands] == client_ids
    assert [(h.ns_score, h.ew_score) for h in hands] == [s for _h, s in OFFLINE_HANDS]
    assert setup.game.changes.filter(action="record").count() == 3


def test_the_clock_runs_out_mid_hand(tablet: Any) -> None:
    setup = make_table()
    game = setup.game

    def deadline_in(seconds: float) -> None:
        start = timezone.now() - timedelta(minutes=60) + timedelta(seconds=seconds)
        Game.objects.filter(id=game.id).update(started_at=start)

    # This tablet's own clock is seven minutes fast: the page must count in the server's time.
    tablet.clock.install(time=time.time() + 7 * 60)
    page = tablet.new_page()
    deadline_in(9 * 60 + 50)
    page.goto(f"/t/{setup.code}/")
    clock = page.locator("#clock")
    expect(page.locator("#clock-note")).to_have_text("10 minutes left")
    expect(clock).to_have_class(re.compile(r"\bwarn-10\b"))
    expect(page.locator("#clock-time")).to_have_text(re.compile(r"^9:[45]\d$"))

    deadline_in(4 * 60 + 50)
    page.reload()
    expect(page.locator("#clock-note")).to_have_text("5 minutes left")
    expect(clock).to_have_class(re.compile(r"\bwarn-5\b"))
    expect(page.locator("#clock-time")).to_have_text(re.compile(r"^4:[45]\d$"))

    deadline_in(33)  # the organiser took minutes away: no "5 minutes left" with 33 s to go
    page.reload()
    expect(page.locator("#clock-note")).to_have_text("Less than a minute left")
    expect(clock).to_have_class(re.compile(r"\bwarn-1\b"))
    expect(page.locator("#clock-time")).to_have_text(re.compile(r"^0:[23]\d$"))

    deadline_in(3)
    page.reload()
    keeper = Scorekeeper(page)
    keeper.pick("bidder", 1)  # the hand is being entered when the time runs out
    keeper.pick("bid", 7)
    expect(page.locator("#clock-time")).to_have_text("Time: finish this hand", timeout=10_000)
    expect(clock).to_have_class(re.compile(r"\bzero\b"))
    keeper.pick("contract", "hearts")
    keeper.pick("tricks", 5)
    keeper.pick("five_hearts", "ew")
    keeper.pick("three_spades", "ns")
    expect(page.locator("#preview")).to_contain_text(
        "This hand ends the game: East–West won: the higher score when time was up."
    )
    keeper.record()
    keeper.settled()
    expect(page.locator("#end")).to_contain_text(
        "East–West won: the higher score when time was up."
    )
    game.refresh_from_db()
    assert (game.status, game.winner, game.end_reason) == ("finished", "ew", "time")
    assert game.time_called_at == game.deadline
    hand = Hand.objects.get(game=game)
    assert hand.after_time
    assert hand.completed_at is not None and game.time_called_at is not None
    assert hand.completed_at > game.time_called_at
    assert hand.completed_at < timezone.now()  # the server's time, not the tablet's


def test_another_tables_code_is_refused(tablet: Any) -> None:
    event = make_event()
    first = add_table(event, number=1)
    second = add_table(event, number=2)
    page = tablet.new_page()
    page.goto(f"/t/{first.code}/")
    expect(page.locator(".bar .where strong")).to_have_text("Table 1")
    answer = page.goto(f"/table/{second.table.id}/")
    assert answer is not None and answer.status == 403
    expect(page.locator("main")).to_contain_text(  # no number: a tablet is in no club
        "This device may not write this table: scan the table's QR code or type its code again."
    )
    status = page.evaluate(
        """async (url) => {
            const token = document.cookie.match(/csrftoken=([^;]+)/)[1];
            const r = await fetch(url, {method: "POST", headers: {"X-CSRFToken": token,
                "Content-Type": "application/json"}, body: "{}"});
            return r.status;
        }""",
        f"/table/{second.table.id}/hands",
    )
    assert status == 403
    answer = page.goto("/t/NOSUCHCODE123456789/")
    assert answer is not None and answer.status == 404
    expect(page.locator("main")).to_contain_text("No table has this code.")
    assert Hand.with_pending.count() == 0


def english_left_on(text: str) -> list[str]:
    """The table page's English sentences (their longest fixed parts) still on a page."""
    from tests.table.po import entries

    left = []
    for entry in entries():
        if not entry.on_the_table_page or entry.translations == [entry.msgid]:
            continue
        for part in re.split(r"%\(\w+\)[sd]|\{\w+\}", entry.msgid):
            part = part.strip(" .:,;·")
            if len(part) >= 6 and re.search(rf"(?<!\w){re.escape(part)}(?!\w)", text):
                left.append(part)
    return left


def test_the_page_in_french(tablet: Any) -> None:
    setup = make_table(verification=True)
    page = tablet.new_page()
    page.goto(f"/t/{setup.code}/")
    expect(page.locator("#record")).to_have_text("Record the hand")
    page.locator(".lang button").click()  # the switch: Français
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#record")).to_have_text("Inscrire la donne")
    expect(page.locator("#keeper legend")).to_have_text("Qui saisit les donnes ?")
    expect(page.locator("#net-text")).to_have_text("En ligne")
    expect(page.locator("#clock-time")).to_have_text(re.compile(r"^(59|60):\d\d$"))
    text = page.locator("body").inner_text()
    for french in ("Preneur", "Mise", "Levées de l’équipe preneuse", "Feuille de pointage"):
        assert french in text
    assert english_left_on(text) == []

    keeper = Scorekeeper(page)
    keeper.tap("#entry input[name=keeper][value='0'] + span")
    keeper.hand("E", 7, "clubs", 0, "ew", "ns", record=False)  # E-W took no tricks, and the 5♥?
    expect(page.locator("#preview .refusal")).to_have_text(
        "Est–Ouest n’a fait aucune levée, elle ne peut donc pas avoir pris le 5♥ : "
        "Nord–Sud a fait les huit levées et pris les deux cartes."
    )
    keeper.pick("five_hearts", "ns")
    expect(page.locator("#preview .preview-body")).to_contain_text("Prochain donneur : Est.")
    keeper.record()
    keeper.settled()
    expect(page.locator("#pending h2")).to_have_text("Donne 1 : à confirmer")
    # Only the other partnership (East, West) is offered to confirm; South, the partner, is not.
    expect(page.locator("#pending [data-action=confirm][data-seat='2']")).to_have_count(0)
    expect(page.locator("#pending [data-action=confirm][data-seat='1']")).to_have_count(1)
    text = page.locator("body").inner_text()
    assert english_left_on(text) == []
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(OUT / "table-phone-fr.png"), full_page=False)


def test_a_queued_hand_the_server_refuses_is_a_conflict_to_resolve(
    tablet: Any, network: HallNetwork
) -> None:
    setup = make_table()
    page = tablet.new_page()
    page.goto(f"/t/{setup.code}/")
    keeper = Scorekeeper(page)
    network.down = True
    tablet.set_offline(True)
    keeper.hand("E", 7, "hearts", 5, "ew", "ns")  # waits on the tablet as hand 1
    expect(page.locator("#queue-count")).to_have_text("1 hand waiting to be sent")
    # Meanwhile the organiser enters hand 1 from the paper sheet.
    record(setup.game, played(S, 8, 6, NS, EW))  # N-S 6 + 5 = 11 made; E-W 2 − 3 = −1
    network.down = False
    tablet.set_offline(False)
    conflicts = page.locator("#conflicts")
    expect(conflicts).to_contain_text("Hand 1 was not accepted by the server:")
    expect(conflicts).to_contain_text("The game moved on meanwhile")
    expect(page.locator("#score-ns")).to_have_text("11")  # the board shows the truth
    assert Hand.objects.filter(game=setup.game).count() == 1
    keeper.tap("#conflicts [data-conflict=edit]")  # the tablet's hand, entered again
    expect(conflicts).to_be_hidden()
    assert page.locator("#entry input[name=bidder][value='1']").is_checked()
    expect(page.locator("#hand-number")).to_have_text("2")
    keeper.record()
    keeper.settled()
    expect(page.locator("#score-ew")).to_have_text("9")  # −1 + 10
    assert Hand.objects.filter(game=setup.game).count() == 2


def test_the_end_of_the_game_agreed_by_both_then_the_next_game(tablet: Any) -> None:
    setup = make_table()
    for (bidder, bid, contract, tricks, five, three), _scores in WHOLE_GAME[:6]:
        seat = {"N": N, "E": E, "S": S, "W": W}[bidder]
        trump = None if contract == "no_trump" else Suit(contract)
        kind = Contract.NO_TRUMP if contract == "no_trump" else Contract.TRUMP
        record(
            setup.game,
            played(seat, bid, tricks, Side(five), Side(three), trump=trump, contract=kind),
        )
    page = tablet.new_page()
    page.goto(f"/t/{setup.code}/")
    keeper = Scorekeeper(page)
    expect(page.locator("#score-ns")).to_have_text("51")
    expect(page.locator(".score.team-ns .mark")).to_have_text("Bid out")  # 51 ≥ 47
    keeper.hand("N", 7, "clubs", 5, "ns", "ew")
    keeper.settled()
    end = page.locator("#end")
    expect(end).to_contain_text("North–South won: reached the target.")
    expect(page.locator("[data-action=undo]")).to_be_visible()  # until both agree
    keeper.tap("#end [data-team=ns]")
    keeper.settled()
    expect(page.locator("#end [data-team=ns]")).to_be_disabled()
    keeper.tap("#end [data-team=ew]")
    keeper.settled()
    expect(end).to_contain_text("Both partnerships agreed. Waiting for the next game at this table")
    expect(page.locator("[data-action=undo]")).to_be_hidden()
    game = Game.objects.get(id=setup.game.id)
    assert set(game.changes.filter(action="acknowledge").values_list("after__team", flat=True)) == {
        "ns",
        "ew",
    }
    # The organiser pairs the table's next game: the page goes to it on its own.
    nxt = add_table(setup.event, table=setup.table, round_number=2)
    expect(page.locator("#board-root")).to_have_attribute(
        "data-game", str(nxt.game.id), timeout=15_000
    )
    expect(page.locator("#hand-number")).to_have_text("1")
    expect(page.locator(".event")).to_contain_text("Round 2")


SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"

TOUCH_TARGETS = """() => {
    const small = [];
    for (const el of document.querySelectorAll(
            "button, .pick span, summary, .switch, a.button, input[type=checkbox]")) {
        const box = el.getBoundingClientRect();
        if (box.width === 0 || el.closest("[hidden]")) continue;
        const min = el.matches("input[type=checkbox]") ? 24 : 48;  // inside a 48 px label
        if (box.width < min - 0.5 || box.height < min - 0.5)
            small.push(`${el.outerHTML.slice(0, 80)} ${box.width}x${box.height}`);
    }
    return small;
}"""


@pytest.mark.parametrize(
    ("size", "name"), [((768, 1024), "table-tablet.png"), ((390, 844), "table-phone.png")]
)
def test_tablet_and_phone_layouts(browser: Any, live_server: Any, size: Any, name: str) -> None:
    """Touch targets of at least 48 px, nothing wider than the screen; a screenshot of each
    (into docs/screenshots with KAISER_SCREENSHOTS=1, else bench/_out)."""
    setup = make_table(verification=True)
    for (bidder, bid, contract, tricks, five, three), _scores in WHOLE_GAME[:4]:
        seat = {"N": N, "E": E, "S": S, "W": W}[bidder]
        trump = None if contract == "no_trump" else Suit(contract)
        kind = Contract.NO_TRUMP if contract == "no_trump" else Contract.TRUMP
        record(
            setup.game,
            played(seat, bid, tricks, Side(five), Side(three), trump=trump, contract=kind),
        )
    Game.objects.filter(id=setup.game.id).update(
        started_at=timezone.now() - timedelta(minutes=38, seconds=20)
    )
    width, height = size
    context = browser.new_context(
        viewport={"width": width, "height": height},
        has_touch=True,
        is_mobile=width < 700,
        device_scale_factor=2 if width < 700 else 1,
        base_url=live_server.url,
    )
    try:
        page = context.new_page()
        page.goto(f"/t/{setup.code}/")
        keeper = Scorekeeper(page)
        keeper.tap("#entry input[name=keeper][value='0'] + span")
        keeper.hand("E", 8, "diamonds", 6, "ew", "ns", record=False)
        expect(page.locator("#preview .preview-body")).to_be_visible()
        assert page.evaluate(TOUCH_TARGETS) == []
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        folder = SCREENSHOTS if os.environ.get("KAISER_SCREENSHOTS") == "1" else OUT
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / name), full_page=True)
    finally:
        context.close()


def test_verification_offline_on_the_same_device(tablet: Any, network: HallNetwork) -> None:
    """No connection: the other partnership still confirms on the tablet; the entry and its
    confirmation wait together and reach the server in order."""
    setup = make_table(verification=True)
    page = tablet.new_page()
    page.goto(f"/t/{setup.code}/")
    keeper = Scorekeeper(page)
    keeper.tap("#entry input[name=keeper][value='1'] + span")  # East keeps score
    network.down = True
    tablet.set_offline(True)
    keeper.hand("E", 7, "hearts", 5, "ew", "ns")
    local = page.locator("#local-pending")
    expect(local).to_contain_text("Hand 1: to be confirmed")
    expect(local).to_contain_text("A player of North–South checks the hand")
    expect(page.locator("#entry")).to_be_hidden()
    # West is East's partner: only North and South are offered.
    expect(local.locator("[data-action=confirm]")).to_have_count(2)
    expect(local.locator("[data-action=confirm][data-seat='3']")).to_have_count(0)
    keeper.tap("#local-pending [data-action=confirm][data-seat='2']")  # South confirms
    expect(local).to_have_count(0)
    expect(page.locator("#hand-number")).to_have_text("2")
    keeper.hand("S", 8, "spades", 6, "ns", "ew")
    keeper.tap("#local-pending [data-action=confirm][data-seat='0']")  # North confirms
    expect(page.locator("#queue-count")).to_have_text("2 hands waiting to be sent")
    assert [op["kind"] for op in keeper.outbox()] == ["hands", "confirm", "hands", "confirm"]
    assert Hand.with_pending.filter(game=setup.game).count() == 0
    network.down = False
    tablet.set_offline(False)
    keeper.settled(timeout=20)
    expect(page.locator("#score-ns")).to_have_text("11")
    expect(page.locator("#score-ew")).to_have_text("9")
    hands = list(Hand.objects.filter(game=setup.game).order_by("number"))
    assert [(h.entered_by_seat, h.confirmed_by_seat) for h in hands] == [(1, 2), (1, 0)]


def test_without_a_service_worker_closing_the_tab_loses_nothing(
    browser: Any, live_server: Any
) -> None:
    """A hall's plain-HTTP network allows no service worker: hands entered offline wait in the
    browser's storage, survive the tab being closed, and go when the page is open again."""
    setup = make_table()
    context = browser.new_context(
        viewport={"width": 768, "height": 1024}, base_url=live_server.url, service_workers="block"
    )
    try:
        page = context.new_page()
        page.goto(f"/t/{setup.code}/")
        keeper = Scorekeeper(page)
        context.set_offline(True)
        keeper.hand("E", 7, "hearts", 5, "ew", "ns")
        keeper.hand("S", 8, "spades", 6, "ns", "ew")
        expect(page.locator("#queue-count")).to_have_text("2 hands waiting to be sent")
        assert page.evaluate("navigator.serviceWorker.controller") is None
        page.close()  # the tab is closed; the battery may die too
        assert Hand.objects.filter(game=setup.game).count() == 0
        context.set_offline(False)
        page = context.new_page()
        page.goto(f"/table/{setup.table.id}/")
        Scorekeeper(page).settled(timeout=20)
        expect(page.locator("#score-ns")).to_have_text("11")
        assert [h.number for h in Hand.objects.filter(game=setup.game)] == [1, 2]
    finally:
        context.close()


def test_a_forced_bid_and_a_misdeal_where_the_rules_allow_them(tablet: Any) -> None:
    setup = make_table(preset="club")  # club sheet: misdeals; all passing is a misdeal
    page = tablet.new_page()
    page.goto(f"/t/{setup.code}/")
    keeper = Scorekeeper(page)
    expect(page.locator("#entry input[name=forced]")).to_have_count(0)  # the dealer may pass
    keeper.tap("#misdeal summary")
    keeper.pick("misdeal_reason", "no_face_card")
    expect(page.locator("#preview")).to_contain_text("Misdeal: no points. Next deal: East.")
    keeper.record()
    keeper.settled()
    expect(page.locator("#sheet-body tr").first).to_contain_text("Misdeal")
    expect(page.locator("#dealer-name")).to_have_text("East")  # the deal passes on (club sheet)

    other = make_table()  # tournament: no misdeals; everyone passed, the dealer must play 7
    page.goto(f"/t/{other.code}/")
    expect(page.locator("#misdeal")).to_have_count(0)
    keeper.tap("#entry .switch")
    assert page.locator("#entry input[name=bidder][value='0']").is_checked()  # North deals
    assert page.locator("#entry input[name=bid][value='7']").is_checked()
    keeper.pick("contract", "spades")
    keeper.pick("tricks", 6)
    keeper.pick("five_hearts", "ns")
    keeper.pick("three_spades", "ew")
    keeper.record()
    keeper.settled()
    expect(page.locator("#score-ns")).to_have_text("11")
    hand = Hand.objects.get(game=other.game)
    assert (hand.forced, hand.bidder, hand.bid) == (True, 0, 7)
