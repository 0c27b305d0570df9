"""The hall's network, cut at the live server rather than in the browser.

Chromium's offline switch and Playwright's request routing do not reliably cover a page that a
service worker controls: now and then a request slips past both. Cutting at the server is what
a dropped Wi-Fi looks like from the tablet (a connection that ends with no answer) and it holds
for every request, the worker's included."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.test.testcases import QuietWSGIRequestHandler


class HallNetwork:
    def __init__(self) -> None:
        self.down = False
        self.dropped: list[str] = []  # requests that met a dead network
        self.lost_answers: list[str] = []  # handled by the server, answer never delivered
        self._lose_next_answer_to: str | None = None

    def lose_next_answer_to(self, path_suffix: str) -> None:
        """The next POST whose path ends so is recorded by the server, but the tablet never
        hears back."""
        self._lose_next_answer_to = path_suffix

    def _should_lose(self, command: str, path: str) -> bool:
        suffix = self._lose_next_answer_to
        if command == "POST" and suffix is not None and path.split("?")[0].endswith(suffix):
            self._lose_next_answer_to = None
            self.lost_answers.append(path)
            return True
        return False


def _handler_for(network: HallNetwork) -> type[QuietWSGIRequestHandler]:
    class CutHandler(QuietWSGIRequestHandler):
        # Decided once the request has arrived: a kept-alive connection waits for its next
        # request with the network up and may receive it after the network went down.
        def parse_request(self) -> bool:
            if network.down:
                network.dropped.append(self.raw_requestline.decode("latin-1").strip())
                self.close_connection = True
                return False  # nothing answered: the connection just ends
            parsed = bool(super().parse_request())
            if parsed and network._should_lose(self.command, self.path):
                self.wfile = io.BytesIO()  # the server answers into the void
                self.close_connection = True
            return parsed

    return CutHandler


@contextmanager
def hall_network(live_server: Any) -> Iterator[HallNetwork]:
    server = live_server.thread.httpd
    network = HallNetwork()
    before = server.RequestHandlerClass
    server.RequestHandlerClass = _handler_for(network)
    try:
        yield network
    finally:
        server.RequestHandlerClass = before
