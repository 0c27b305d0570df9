"""A WSGI response followed by a step of the layer that wrapped it, once the server has
written the response and closed it (WSGI's ``close``): the layers around Django's application
(``chunked``, ``unread_body``) clean up or drain there."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator


class AfterResponse:
    def __init__(self, response: Iterable[bytes], then: Callable[[], object]) -> None:
        self.response = response
        self.then = then

    def __iter__(self) -> Iterator[bytes]:
        return iter(self.response)

    def close(self) -> None:
        try:
            close = getattr(self.response, "close", None)
            if close is not None:
                close()
        finally:
            self.then()
