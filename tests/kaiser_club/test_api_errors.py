"""The one exception handler: the KaiserError family as HTTP answers, DRF's own errors as DRF
makes them."""

from __future__ import annotations

import pytest
from rest_framework.exceptions import NotAuthenticated, ValidationError

from kaiser_club.api.exceptions import kaiser_exception_handler
from kaiser_club.errors import Conflict, InvalidInput, KaiserError, NotAllowed, NotFound


@pytest.mark.parametrize(
    ("error", "status", "code"),
    [
        (InvalidInput("Bid 4 is below this game's minimum of 7."), 400, "invalid"),
        (NotAllowed("Only organisers may."), 403, "not_allowed"),
        (NotFound("There is no game 9."), 404, "not_found"),
        (Conflict("The game moved on."), 409, "conflict"),
        (KaiserError("Something else.", code="special"), 400, "special"),
    ],
)
def test_kaiser_errors_map_to_statuses(error: KaiserError, status: int, code: str) -> None:
    answer = kaiser_exception_handler(error, {})
    assert answer is not None
    assert answer.status_code == status
    assert answer.data == {"detail": error.message, "code": code}


def test_field_errors_and_extras_sit_beside_the_detail() -> None:
    error = InvalidInput(
        "Bid 4 is below this game's minimum of 7.",
        field_errors={"bid": ["Bid 4 is below this game's minimum of 7."]},
        extra={"refusals": [{"code": "bid_below_minimum"}]},
    )
    answer = kaiser_exception_handler(error, {})
    assert answer is not None
    assert answer.data == {
        "detail": "Bid 4 is below this game's minimum of 7.",
        "code": "invalid",
        "bid": ["Bid 4 is below this game's minimum of 7."],
        "refusals": [{"code": "bid_below_minimum"}],
    }


def test_drf_errors_pass_through() -> None:
    invalid = kaiser_exception_handler(ValidationError({"bid": ["Required."]}), {})
    assert invalid is not None
    assert (invalid.status_code, invalid.data) == (400, {"bid": ["Required."]})
    anonymous = kaiser_exception_handler(NotAuthenticated(), {})
    assert anonymous is not None and anonymous.status_code == 401


def test_other_exceptions_are_left_to_django() -> None:
    assert kaiser_exception_handler(ValueError("boom"), {}) is None
