"""Scoring's domain errors, members of the one KaiserError family."""

from __future__ import annotations

from collections import defaultdict

from django.utils.translation import gettext

from kaiser_club.errors import Conflict, InvalidInput
from kaiser_club.sentences import Said, render

from .refusal_text import plain_params, refusal_message
from .rules import HandRefused, Refusal


class HandNotAccepted(InvalidInput):
    """The rules refuse the hand. Carries each refusal's code so a page can translate it."""

    code = "hand_refused"

    def __init__(self, refusals: tuple[Refusal, ...] | list[Refusal], *, prefix: Said = "") -> None:
        by_field: dict[str, list[str]] = defaultdict(list)
        general: list[str] = []
        texts = [refusal_message(r) for r in refusals]  # in the request's language
        for refusal, text in zip(refusals, texts, strict=True):
            (by_field[refusal.field] if refusal.field else general).append(text)
        message = " ".join(texts)
        super().__init__(
            f"{render(prefix)}{message}",
            field_errors=by_field,
            extra={
                "refusals": [
                    {
                        "code": r.code,
                        "field": r.field,
                        "params": plain_params(r),
                        "message": text,
                    }
                    for r, text in zip(refusals, texts, strict=True)
                ]
            },
        )
        self.refusals = tuple(refusals)

    @classmethod
    def from_refused(cls, exc: HandRefused, *, prefix: Said = "") -> HandNotAccepted:
        return cls(exc.refusals, prefix=prefix)


class StaleGame(Conflict):
    """The request was made against a game that has moved on. The API adds the current state."""

    code = "stale"

    def __init__(self, message: Said, *, game_id: int) -> None:
        super().__init__(message)
        self.game_id = game_id


class ClientIdReused(Conflict):
    code = "client_id_reused"


class HandAwaitingConfirmation(Conflict):
    """A hand is pending (verification): the next one waits until it is confirmed or
    discarded, so that hand numbers and the deal stay in order."""

    code = "hand_pending"

    def __init__(self, number: int) -> None:
        super().__init__(
            gettext(
                "Hand %(number)s is waiting for a player of the other partnership to confirm "
                "it: confirm or discard it before entering the next hand."
            )
            % {"number": number},
            extra={"hand_number": number},
        )
