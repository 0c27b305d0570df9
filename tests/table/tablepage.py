"""Driving the table page in the browser like a scorekeeper: taps on the visible buttons,
counted, and waits on what the page shows (never on sleeps)."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import expect

SEATS = {"N": 0, "E": 1, "S": 2, "W": 3}


@dataclass
class Scorekeeper:
    page: Any
    taps: int = 0
    log: list[str] = field(default_factory=list)

    def tap(self, selector: str) -> None:
        self.page.locator(selector).click()
        self.taps += 1
        self.log.append(selector)

    def pick(self, name: str, value: object) -> None:
        """Taps the visible button of a choice (the radio itself is hidden under it)."""
        self.tap(f"#entry input[name={name}][value='{value}'] + span")

    def hand(
        self,
        bidder: str,
        bid: int,
        contract: str,
        tricks: int,
        five: str,
        three: str,
        *,
        record: bool = True,
    ) -> None:
        """One played hand: bidder seat letter, bid, a suit or "no_trump", the bidding team's
        tricks, and the team ("ns"/"ew") that took the 5♥ and the 3♠."""
        self.pick("bidder", SEATS[bidder])
        self.pick("bid", bid)
        self.pick("contract", contract)
        self.pick("tricks", tricks)
        self.pick("five_hearts", five)
        self.pick("three_spades", three)
        if record:
            self.record()

    def record(self) -> None:
        expect(self.page.locator("#record")).to_be_enabled()
        self.tap("#record")

    def settled(self, timeout: float = 10.0) -> None:
        """Every write sent and answered: nothing waits in the outbox. (Polled from Python:
        the page's Content-Security-Policy forbids the eval that wait_for_function needs.)"""
        deadline = time.monotonic() + timeout
        while self.outbox():
            if time.monotonic() > deadline:
                raise AssertionError(f"Writes still waiting: {self.outbox()}")
            self.page.wait_for_timeout(50)
        expect(self.page.locator("#queue-count")).to_be_hidden()

    def outbox(self) -> list[dict[str, Any]]:
        return self.page.evaluate(
            "() => JSON.parse(localStorage.getItem("
            "'kaiser.table.' + JSON.parse(document.getElementById('table-config').textContent)"
            ".state.table + '.outbox') || '[]')"
        )

    def score(self, team: str) -> int:
        return int(self.page.locator(f"#score-{team}").inner_text())

    def hand_number(self) -> int:
        return int(self.page.locator("#hand-number").inner_text())


def words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-zÀ-ÿ']+", text))
