"""A tablet as the server sees it: a signed-in session that records hands through the games
API with ids it makes itself, and retries a failed request (no answer, or a 5xx) with the SAME
id and body until the server acknowledges it. Used by the fault tests and the load script."""

from __future__ import annotations

import random
import secrets
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import requests

SUITS = ("clubs", "diamonds", "hearts", "spades")
TEAM_OF_SEAT = {0: "ns", 1: "ew", 2: "ns", 3: "ew"}
OTHER = {"ns": "ew", "ew": "ns"}


def hand_body(number: int) -> dict[str, Any]:
    """Hand ``number`` of a game that never ends: the bidder (N, E, S, W in turn) takes five
    tricks with the 3♠ (2 points) and fails; the defenders take the 5♥ (8 points). Bids run
    7, 7, 9, 9, so over four hands each team gains 8 + 8 and loses 7 + 9: both scores stay
    within about ±20 however long it runs (standard preset: no bid-out is ever reached)."""
    seat = (number - 1) % 4
    bidding = TEAM_OF_SEAT[seat]
    return {
        "bidder": seat,
        "bid": 7 if (number - 1) % 4 < 2 else 9,
        "contract": "trump",
        "trump": SUITS[(number - 1) % len(SUITS)],
        "bidding_team_tricks": 5,
        "five_hearts": OTHER[bidding],
        "three_spades": bidding,
        "client_id": str(uuid.uuid4()),
        "number": number,
    }


class GaveUp(Exception):
    """No acknowledgment within the time allowed."""


@dataclass
class Acknowledged:
    client_id: str
    number: int
    status: int
    attempts: int
    seconds: float


@dataclass
class Tablet:
    """One device: a session cookie, a CSRF token of its own, and what it has seen."""

    base_url: str
    session_key: str
    timeout: float = 10.0
    give_up_after: float = 120.0
    acknowledged: list[Acknowledged] = field(default_factory=list)
    seen: Counter[str] = field(default_factory=Counter)  # "201", "503", "ConnectionError"...
    refused: list[tuple[int, str]] = field(default_factory=list)  # 4xx other than retries
    # Every attempt: (seconds it took, "201" / "503" / "ConnectionError" ...), for the load script.
    attempts_log: list[tuple[float, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.http = requests.Session()
        host = "127.0.0.1"
        self.csrf = secrets.token_hex(16)  # 32 characters: Django accepts a client-made token
        self.http.cookies.set("sessionid", self.session_key, domain=host, path="/")
        self.http.cookies.set("csrftoken", self.csrf, domain=host, path="/")
        self.http.headers.update({"X-CSRFToken": self.csrf, "Accept": "application/json"})

    def record(self, game_id: int, body: dict[str, Any]) -> Acknowledged | None:
        """POSTs the hand until the server answers 200/201 (acknowledged) or a 4xx (refused,
        kept in ``refused``). Raises GaveUp after ``give_up_after`` seconds of failures."""
        url = f"{self.base_url}/api/games/{game_id}/hands/"
        started = time.monotonic()
        attempts = 0
        pause = 0.1
        while True:
            attempts += 1
            sent = time.monotonic()
            try:
                response = self.http.post(url, json=body, timeout=self.timeout)
            except requests.RequestException as exc:
                self.seen[type(exc).__name__] += 1
                self.attempts_log.append((time.monotonic() - sent, type(exc).__name__))
            else:
                self.seen[str(response.status_code)] += 1
                self.attempts_log.append((time.monotonic() - sent, str(response.status_code)))
                if response.status_code in (200, 201):
                    ack = Acknowledged(
                        client_id=body["client_id"],
                        number=response.json()["hand"]["number"],
                        status=response.status_code,
                        attempts=attempts,
                        seconds=time.monotonic() - started,
                    )
                    self.acknowledged.append(ack)
                    return ack
                if response.status_code < 500:
                    self.refused.append((response.status_code, response.text[:500]))
                    return None
            if time.monotonic() - started > self.give_up_after:
                raise GaveUp(f"hand {body.get('number')} of game {game_id}: {dict(self.seen)}")
            time.sleep(pause * random.uniform(0.5, 1.5))
            pause = min(pause * 2, 2.0)

    @property
    def retries(self) -> int:
        return sum(ack.attempts - 1 for ack in self.acknowledged)
