"""The table page and its endpoints through Django's test client: what the page shows, which
game a table is on, retries that must change nothing, and flat query counts."""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from kaiser_club.roles import Role
from scoring import services
from scoring.models import Game, Hand
from scoring.rules import Contract, Seat, Side
from scoring.services import verification
from tests.factories import member
from tests.scoring.hands import EW, NS, E, N, S, filler, played, record
from tests.table.helpers import Setup, add_table, make_event, make_table, opened
from tests.table.test_access import hand_body, post
from tournaments.models import Round
from tournaments.table.selectors import table_now

pytestmark = pytest.mark.django_db


def page_text(client: Client, setup: Setup) -> str:
    answer = client.get(f"/table/{setup.table.id}/")
    assert answer.status_code == 200
    return answer.content.decode()


def test_the_page_shows_seats_dealer_scores_target_and_the_sheet() -> None:
    setup = make_table(preset="saskatchewan")  # target 52 rising to 62 after a made no-trump
    record(setup.game, played(E, 7, 5, EW, NS))
    text = page_text(opened(setup), setup)
    for seen in ("Alice", "Bob", "Chloé", "Dmitri", "Target", "rises to 62", "bid out at 45"):
        assert seen in text
    assert 'class="seat seat-east team-ew dealer"' in text  # North dealt hand 1, East deals next
    assert 'id="score-ew">10<' in text
    assert 'East <span class="contract">7 ♣</span>' in text  # a bid kept on one line
    assert "low no trump" in text.lower()  # the form offers what the rules allow
    assert 'id="misdeal"' not in text  # no misdeals in Saskatchewan


def test_the_target_rise_is_marked() -> None:
    setup = make_table(preset="saskatchewan")
    # South bids 8 no-trump and takes every trick with both cards: 10 points, doubled, +20.
    record(setup.game, played(S, 8, 8, NS, NS, trump=None, contract=Contract.NO_TRUMP))
    setup.game.refresh_from_db()
    assert setup.game.target == 62
    text = page_text(opened(setup), setup)
    assert "raised after a made no-trump" in text
    assert 'id="target">62<' in text


def test_a_bid_out_team_is_marked() -> None:
    setup = make_table()  # tournament: bid out at 47
    for _ in range(2):  # South, 8 no-trump, every trick and both cards: 10, doubled, +20
        record(setup.game, played(S, 8, 8, NS, NS, trump=None, contract=Contract.NO_TRUMP))
    record(setup.game, played(N, 7, 5, NS, EW))  # 5 + 5 = 10 made: 50
    text = page_text(opened(setup), setup)
    assert 'class="score team-ns bid-out"' in text
    assert 'class="score team-ew"' in text
    assert text.count('<span class="mark">Bid out</span>') == 1


def test_misdeals_and_the_forced_bid_switch_follow_the_rules() -> None:
    club_rules = make_table(preset="club")  # misdeals allowed; a pass-out is a misdeal
    text = page_text(opened(club_rules), club_rules)
    assert 'id="misdeal"' in text and "No face card" in text
    assert 'name="forced"' not in text
    tournament = make_table()
    text = page_text(opened(tournament), tournament)
    assert 'id="misdeal"' not in text
    assert 'name="forced"' in text


def test_the_state_carries_what_the_script_keeps() -> None:
    setup = make_table(verification=True)
    client = opened(setup)
    record(setup.game, played(E, 7, 5, EW, NS))
    state = client.get(f"/table/{setup.table.id}/state").json()["state"]
    game = Game.objects.get(id=setup.game.id)
    assert state["verification"] is True
    assert state["game"]["id"] == game.id
    assert state["game"]["version"] == game.version
    assert state["game"]["next_number"] == 2
    assert state["game"]["dealer"] == 1
    assert game.deadline is not None
    assert state["game"]["deadline"] == int(game.deadline.timestamp() * 1000)
    assert state["game"]["may_undo"] is True
    assert state["game"]["last"]["number"] == 1
    assert abs(state["server_now"] - timezone.now().timestamp() * 1000) < 5000


def test_the_preview_shows_both_teams_and_the_new_scores() -> None:
    setup = make_table()
    client = opened(setup)
    body = hand_body(setup.game)
    answer = post(client, setup.table.id, "preview", body)
    assert answer.status_code == 200
    html = answer.json()["preview"]
    assert "East–West" in html and "made" in html and "+10" in html
    assert "Next deal: East." in html
    assert Hand.with_pending.count() == 0  # nothing written


def test_the_preview_says_why_a_bid_out_side_scores_by_stealing_the_five() -> None:
    setup = make_table()  # tournament: bid out at 47, stealing the five scores
    for _ in range(2):
        record(setup.game, played(S, 8, 8, NS, NS, trump=None, contract=Contract.NO_TRUMP))
    record(setup.game, played(N, 7, 5, NS, EW))  # North–South 50: bid out
    client = opened(setup)
    body = hand_body(setup.game)  # East bids 7 hearts, takes 5; North–South take the 5♥
    body["entry"].update({"five_hearts": "ns", "three_spades": "ew"})
    html = post(client, setup.table.id, "preview", body).json()["preview"]
    assert "North–South is bid out but took the 5♥: stealing the five, its points count." in html
    plain = hand_body(setup.game)  # East–West take the 5♥: nothing stolen
    html = post(client, setup.table.id, "preview", plain).json()["preview"]
    assert "stealing the five" not in html


def test_the_preview_past_the_deadline_says_the_game_ends_on_time() -> None:
    setup = make_table()
    Game.objects.filter(id=setup.game.id).update(started_at=timezone.now() - timedelta(minutes=61))
    answer = post(opened(setup), setup.table.id, "preview", hand_body(setup.game))
    assert (
        "This hand ends the game: East–West won: the higher score when time was up."
        in (answer.json()["preview"])
    )


def test_a_refusal_comes_in_the_pages_language() -> None:
    setup = make_table()
    client = opened(setup)
    client.cookies["django_language"] = "fr"
    body = hand_body(setup.game)
    body["entry"]["bid"] = 4
    answer = post(client, setup.table.id, "preview", body)
    assert answer.status_code == 400
    assert answer.json()["detail"] == "La mise de 4 est sous le minimum de 7 de cette partie."
    assert 'lang="fr"' in page_text(client, setup)


def test_a_retry_of_a_recorded_hand_records_nothing_more() -> None:
    setup = make_table()
    client = opened(setup)
    body = hand_body(setup.game)
    first = post(client, setup.table.id, "hands", body)
    again = post(client, setup.table.id, "hands", body)
    assert (first.json()["created"], again.json()["created"]) == (True, False)
    assert Hand.objects.filter(game=setup.game).count() == 1


def test_a_retry_after_the_table_moved_on_is_answered_as_done() -> None:
    setup = make_table()
    client = opened(setup)
    body = hand_body(setup.game)
    post(client, setup.table.id, "hands", body)
    Game.objects.filter(id=setup.game.id).update(status="finished", winner="ew")
    verification.game_acknowledge(game_id=setup.game.id, team=Side.NS)
    verification.game_acknowledge(game_id=setup.game.id, team=Side.EW)
    add_table(setup.event, table=setup.table, round_number=2)
    again = post(client, setup.table.id, "hands", body)
    assert again.status_code == 200 and again.json()["created"] is False
    stale = post(client, setup.table.id, "hands", hand_body(setup.game))
    assert stale.status_code == 409 and stale.json()["code"] == "table_moved_on"


def test_every_endpoint_refuses_a_game_its_table_moved_on_from() -> None:
    """The hand services decide it for each action (``game_shown``), so every door that names
    the game it showed hears the same refusal, and the table's rows stay as they were."""
    setup = make_table(verification=True)
    client = opened(setup)
    pending = hand_body(setup.game, entered_by_seat=0)
    post(client, setup.table.id, "hands", pending)
    services.game_forfeit(game_id=setup.game.id, forfeited_by=Side.NS)
    add_table(setup.event, table=setup.table, round_number=2)  # its game begins: moved on
    game = Game.objects.get(id=setup.game.id)
    kept = (game.version, game.changes.count(), Hand.with_pending.count())
    sent = {
        "preview": hand_body(setup.game),
        "hands": hand_body(setup.game, entered_by_seat=0),
        "confirm": {"game_id": setup.game.id, "number": 1, "seat": 1},
        "discard": {"game_id": setup.game.id, "number": 1, "client_id": pending["client_id"]},
        "undo": {"game_id": setup.game.id, "number": 1, "client_id": pending["client_id"]},
    }
    for endpoint, body in sent.items():
        answer = post(client, setup.table.id, endpoint, body)
        assert answer.status_code == 409, (endpoint, answer.content[:200])
        assert answer.json()["code"] == "table_moved_on", endpoint
    game.refresh_from_db()
    assert (game.version, game.changes.count(), Hand.with_pending.count()) == kept


def test_undo_and_its_retry() -> None:
    setup = make_table()
    client = opened(setup)
    body = hand_body(setup.game)
    post(client, setup.table.id, "hands", body)
    undo = {"game_id": setup.game.id, "number": 1, "client_id": body["client_id"]}
    assert post(client, setup.table.id, "undo", undo).json()["undone"] is True
    assert post(client, setup.table.id, "undo", undo).json()["undone"] is False  # a retry
    assert Game.objects.get(id=setup.game.id).hand_count == 0


def test_undo_of_a_hand_that_is_no_longer_the_last_is_refused() -> None:
    setup = make_table()
    client = opened(setup)
    first = hand_body(setup.game)
    post(client, setup.table.id, "hands", first)
    record(setup.game, played(S, 8, 6, NS, EW))
    answer = post(
        client,
        setup.table.id,
        "undo",
        {"game_id": setup.game.id, "number": 1, "client_id": first["client_id"]},
    )
    assert answer.status_code == 409
    assert answer.json()["detail"].startswith("The game moved on meanwhile")
    assert Game.objects.get(id=setup.game.id).hand_count == 2


def test_verification_through_the_endpoints() -> None:
    setup = make_table(verification=True)
    client = opened(setup)
    body = hand_body(setup.game, entered_by_seat=0)
    answer = post(client, setup.table.id, "hands", body)
    assert answer.json()["pending"] is True
    assert "Hand 1: to be confirmed" in answer.json()["board"]
    confirm = {"game_id": setup.game.id, "number": 1, "seat": 2}
    refused = post(client, setup.table.id, "confirm", confirm)
    assert refused.status_code == 400 and refused.json()["code"] == "same_partnership"
    confirm["seat"] = 3
    assert post(client, setup.table.id, "confirm", confirm).status_code == 200
    assert Game.objects.get(id=setup.game.id).ew_score == 10
    assert post(client, setup.table.id, "confirm", confirm).status_code == 200  # a retry


def test_the_first_hand_waiting_for_confirmation_is_the_sheet_and_says_whose_bid_was_made() -> None:
    setup = make_table(verification=True)
    client = opened(setup)
    assert "No hands yet." in page_text(client, setup)
    post(client, setup.table.id, "hands", hand_body(setup.game, entered_by_seat=0))
    text = page_text(client, setup)
    assert "Hand 1: to be confirmed" in text
    assert "No hands yet." not in text  # the waiting hand is on the sheet
    summary = text[text.index('<p class="summary">') : text.index('<p class="result">')]
    assert 'class="made"' in summary or 'class="set"' in summary  # next to the bid
    result = text[text.index('<p class="result">') :]
    result = result[: result.index("</p>")]
    assert 'class="made"' not in result and 'class="set"' not in result


def test_an_organiser_at_the_table_is_not_asked_who_enters_and_has_a_way_back() -> None:
    setup = make_table(verification=True)
    tablet = page_text(opened(setup), setup)
    assert "Who is entering the hands?" in tablet  # a player's hand waits for the others
    assert "Back to the event" not in tablet
    organiser = Client()
    organiser.force_login(member(setup.event.club, Role.ORGANISER))
    text = page_text(organiser, setup)
    assert "Who is entering the hands?" not in text  # an organiser's hands count at once
    assert f'href="/events/{setup.event.id}/"' in text and "Back to the event" in text
    body = hand_body(setup.game)
    answer = post(organiser, setup.table.id, "hands", body)
    assert answer.status_code in (200, 201) and answer.json()["pending"] is False


def test_discard_and_its_retry() -> None:
    setup = make_table(verification=True)
    client = opened(setup)
    body = hand_body(setup.game, entered_by_seat=1)
    post(client, setup.table.id, "hands", body)
    discard = {"game_id": setup.game.id, "number": 1, "client_id": body["client_id"]}
    assert post(client, setup.table.id, "discard", discard).json()["discarded"] is not False
    assert post(client, setup.table.id, "discard", discard).json()["discarded"] is False
    assert Hand.with_pending.count() == 0


def test_no_hand_before_the_round_starts() -> None:
    setup = make_table(started=False)
    client = opened(setup)
    assert "The round has not started" in page_text(client, setup)
    answer = post(client, setup.table.id, "hands", hand_body(setup.game))
    assert answer.status_code == 400
    Round.objects.filter(id=setup.round.id).update(status="started")
    assert post(client, setup.table.id, "hands", hand_body(setup.game)).status_code == 200


def test_acknowledging_a_game_of_another_table_is_refused() -> None:
    event = make_event()
    first, second = add_table(event, number=1), add_table(event, number=2)
    answer = post(
        opened(first), first.table.id, "acknowledge", {"game_id": second.game.id, "team": "ns"}
    )
    assert answer.status_code == 403


# --- Which game a table is on ----------------------------------------------------------------


def finish(setup: Setup) -> None:
    services.game_forfeit(game_id=setup.game.id, forfeited_by=Side.NS)


def test_a_finished_game_stays_until_both_partnerships_agree() -> None:
    first = make_table()
    second = add_table(first.event, table=first.table, round_number=2, started=False)
    finish(first)
    assert table_now(table=first.table).game == first.game
    verification.game_acknowledge(game_id=first.game.id, team=Side.NS)
    assert table_now(table=first.table).game == first.game
    verification.game_acknowledge(game_id=first.game.id, team=Side.EW)
    now = table_now(table=first.table)
    assert (now.game, now.waiting) == (second.game, False)


def test_a_finished_game_no_one_agreed_to_is_left_once_the_next_one_begins() -> None:
    first = make_table()
    second = add_table(first.event, table=first.table, round_number=2)  # its clock runs
    finish(first)
    assert table_now(table=first.table).game == second.game


def test_the_table_moves_to_its_next_game_when_the_round_starts_agreed_or_not() -> None:
    """A hall forgets to tap "agree"; the end screen stays until the next game
    starts, then the table shows that game."""
    from tournaments.services.rounds import round_start_unchecked

    first = make_table()
    second = add_table(first.event, table=first.table, round_number=2, started=False)
    finish(first)
    verification.game_acknowledge(game_id=first.game.id, team=Side.NS)  # one side only
    now = table_now(table=first.table)
    assert (now.game, now.finished, now.waiting) == (first.game, True, False)
    assert "Game over" in page_text(opened(first), first)
    round_start_unchecked(round_=second.round)
    assert table_now(table=first.table).game == second.game


def test_a_game_with_no_clock_starts_with_its_round() -> None:
    first = make_table()
    second = add_table(first.event, table=first.table, round_number=2, started=False)
    Game.objects.filter(id=second.game.id).update(time_limit_minutes=None)
    finish(first)
    assert table_now(table=first.table).game == first.game  # round 2 not started
    Round.objects.filter(id=second.round.id).update(status="started")
    assert table_now(table=first.table).game == second.game


def test_after_the_last_game_the_table_waits() -> None:
    setup = make_table()
    finish(setup)
    for team in (Side.NS, Side.EW):
        verification.game_acknowledge(game_id=setup.game.id, team=team)
    now = table_now(table=setup.table)
    assert (now.game, now.waiting) == (setup.game, True)
    assert "Waiting for the next game at this table" in page_text(opened(setup), setup)


def test_a_table_with_no_game_yet() -> None:
    event = make_event()
    setup = add_table(event)
    setup.pairing.delete()
    text = page_text(opened(setup), setup)
    assert "No game at this table yet" in text


# --- Query counts ---------------------------------------------------------------------------


def queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


@pytest.mark.parametrize("what", ["", "state", "board"])
def test_the_page_costs_the_same_with_1_or_30_hands_and_1_or_5_rounds(what: str) -> None:
    small = make_table(verification=True)
    finish(small)  # round 1, over; round 2 is being played
    small = add_table(small.event, table=small.table, round_number=2)
    record(small.game, filler(1))
    big = make_table(verification=True)
    for round_number in range(2, 6):
        earlier = add_table(big.event, table=big.table, round_number=round_number)
        finish(earlier)
    for number in range(1, 31):
        record(big.game, filler(number))
    services.hand_record(
        game_id=big.game.id,
        entry=filler(31),
        client_id=uuid.uuid4(),
        entered_by_seat=Seat.NORTH,
        pending=True,
    )
    counts = []
    for setup in (small, big):
        client = opened(setup)
        counts.append(queries(client, f"/table/{setup.table.id}/{what}"))
    assert counts[0] == counts[1], counts
    assert counts[0] <= 12


def test_the_service_worker_names_the_files_it_keeps(client: Any) -> None:
    answer = client.get("/table/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("application/javascript")
    assert answer["Cache-Control"] == "no-cache"
    text = answer.content.decode()
    for name in ("table/table.css", "table/table.js", "table/queue.js", "table/clock.js"):
        assert name in text


def test_recording_a_hand_costs_the_same_after_1_or_30_hands() -> None:
    counts = []
    for earlier in (1, 30):
        setup = make_table()
        for number in range(1, earlier + 1):
            record(setup.game, filler(number))
        client = opened(setup)
        setup.game.refresh_from_db()
        with CaptureQueriesContext(connection) as captured:
            assert post(client, setup.table.id, "hands", hand_body(setup.game)).status_code == 200
        counts.append(len(captured))
    assert counts[0] == counts[1], counts


def test_the_confirm_step_offers_only_the_other_partnerships_two_seats() -> None:
    import re

    setup = make_table(verification=True)
    services.hand_record(
        game_id=setup.game.id,
        entry=played(E, 7, 5, EW, NS),
        client_id=uuid.uuid4(),
        entered_by_seat=N,
        pending=True,
    )
    text = page_text(opened(setup), setup)
    pending = text[text.index('id="pending"') :]
    pending = pending[: pending.index("</section>")]
    assert re.findall(r'data-action="confirm" data-seat="(\d)"', pending) == ["1", "3"]
