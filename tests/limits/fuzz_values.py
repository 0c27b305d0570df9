"""What the stateful fuzzer (``test_stateful_fuzz.py``) sends: plausible values mixed with the
extremes of every type, as JSON text written here rather than by ``json.dumps``, so that a body
can hold what no encoder writes (``NaN``, ``1e999``, a lone surrogate, nesting thousands deep,
bytes that are not UTF-8)."""

from __future__ import annotations

import json
import uuid
from typing import Any

from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy


class Raw(str):
    """JSON text sent as it is."""


def to_json(value: Any) -> str:
    """``value`` as JSON text; a ``Raw`` is written as it is, wherever it sits."""
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, dict):
        return "{" + ",".join(f"{json.dumps(str(k))}:{to_json(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ",".join(to_json(v) for v in value) + "]"
    # ensure_ascii: a lone surrogate is written as the escape a page could send, \ud800
    return json.dumps(value)


HUGE_INTS = [2**63, 2**63 - 1, -(2**63) - 1, -(2**31), 2**31, 2**31 - 1, 32768, -1, 0, 10**40]
RAW_NUMBERS = [
    Raw("1e999"),
    Raw("-1e999"),
    Raw("NaN"),
    Raw("Infinity"),
    Raw("-Infinity"),
    Raw("-0"),
    Raw("1E+2"),
    Raw("0.1e-400"),
    Raw("9" * 5000),  # more digits than Python reads into an int
]
FLOATS = [1e308, -1e308, 0.5, -0.0, 7.0, 5e-324, 12.999999999999]
TEXTS = [
    "x" * 10_000,
    "\u202egnorw",
    "\x00",
    "a\x00b",
    "\ud800",
    "a\udfffb",
    "\U0001f0a1" * 300,
    "",
    " ",
    "<script>alert(1)</script>",
    "\u0661\u0662",  # Arabic-Indic 12
    "\u00b2",
    "\uff17",  # full-width 7
    "null",
    "\x07\x1b[31m",
    "\u2066x\u2069",
    "e\u0301" * 100,
    "\ufeff",
    "\r\n",
    "\u03a9" * 161,
    "\u0958" * 160,  # one character as typed, two in the standard form (NFC) the app stores
    "\ufb2c" * 60,  # one as typed, three in NFC
    "%s %(x)s {0}",
    "\\",
    "'\"",
    "\U0010ffff",
    "7",
    "-1",
    "2026-02-30",
]
WRONG_TYPES = [
    [],
    [1, 2],
    {"a": 1},
    {},
    True,
    False,
    None,
    [[[[[[]]]]]],
    Raw("[" * 5000 + "]" * 5000),
    Raw('{"a":' * 3000 + "1" + "}" * 3000),
]
EXTREME: SearchStrategy[Any] = st.one_of(
    st.sampled_from(HUGE_INTS + RAW_NUMBERS + FLOATS + TEXTS + WRONG_TYPES),
    st.integers(),
    st.text(max_size=40),
)
# A whole body that is not a JSON object, or not JSON, or not UTF-8.
ODD_BODIES: list[str | bytes] = [
    "",
    "[]",
    "null",
    '"text"',
    "{",
    "[" * 5000,
    '{"a": NaN}',
    "1e999",
    b"\xff\xfe{}",
    b'{"name": "\xc3"}',
    "{}" * 3,
]


def mixed(plausible: SearchStrategy[Any]) -> SearchStrategy[Any]:
    """Mostly a plausible value, so the event moves on; else an extreme of any type."""
    return st.integers(0, 9).flatmap(lambda n: plausible if n < 7 else EXTREME)


@st.composite
def body(draw: Any, fields: dict[str, SearchStrategy[Any]]) -> str | bytes:
    """A JSON body with these fields: half the time all plausible (the event moves on), else
    one field an extreme, or every field mixed, or a field missing, or an unknown field, or a
    body that is no object at all."""
    kind = draw(st.integers(0, 19))  # 0 (the simplest example) is a plausible body
    if kind == 19:
        return draw(st.sampled_from(ODD_BODIES))
    out: dict[str, Any] = {}
    names = list(fields)
    odd_one = draw(st.sampled_from(names)) if names else None
    for name, strategy in fields.items():
        if kind <= 10 or kind == 17:
            out[name] = draw(strategy)
        elif kind <= 14:
            out[name] = draw(EXTREME if name == odd_one else strategy)
        elif kind <= 16:
            out[name] = draw(mixed(strategy))
        elif name != odd_one:  # 18: a missing field
            out[name] = draw(strategy)
    if kind == 17:
        out[draw(st.sampled_from(["extra", "id", "club", "\ud800", ""]))] = draw(EXTREME)
    return to_json(out)


# Plausible values of the game: what a scorekeeper enters.
SEAT = st.integers(0, 3)
SIDE = st.sampled_from(["ns", "ew"])
SUIT = st.sampled_from(["hearts", "spades", "diamonds", "clubs"])
UUIDS = st.builds(lambda: str(uuid.uuid4()))
# Text as people type or paste it: mostly plain, now and then with what the app cleans away
# (control and bidi formatting characters, line breaks, runs of spaces).
ODD_TYPED = [
    "  Cy \u2066Lee\u2069  ",
    "Bo\u202e nosirraH",
    "Dee\nDee",
    "Eve\x07\x1b",
    "\u00c9lodie\u200f",
]
NAME = st.sampled_from(
    ["Ann", "Legion Hall Open", "Zo\u00eb & \u00dcnal", "\u0958" * 100, *ODD_TYPED]
)
REASON = st.sampled_from(["", "wrong bid", "Scorekeeper typo", "late arrival", *ODD_TYPED])


@st.composite
def hand_entry(draw: Any) -> dict[str, Any]:
    """A hand as the table page or the API sends it: mostly one the rules accept (the cards'
    owners fit the tricks), often a big no-trump win so that games end."""
    bidder = draw(SEAT)
    bidding = "ns" if bidder % 2 == 0 else "ew"
    other = "ew" if bidding == "ns" else "ns"
    if not draw(st.booleans()):
        return {
            "bidder": bidder,
            "bid": draw(st.sampled_from([10, 11, 12])),
            "contract": "no_trump",
            "bidding_team_tricks": 8,
            "five_hearts": bidding,
            "three_spades": bidding,
        }
    tricks = draw(st.integers(0, 8))
    five = bidding if tricks == 8 else other if tricks == 0 else draw(SIDE)
    three = bidding if tricks == 8 else other if tricks == 0 else draw(SIDE)
    contract = draw(st.sampled_from(["trump", "no_trump"]))
    entry: dict[str, Any] = {
        "bidder": bidder,
        "bid": draw(st.integers(7, 12)),
        "contract": contract,
        "bidding_team_tricks": tricks,
        "five_hearts": five,
        "three_spades": three,
    }
    if contract == "trump":
        entry["trump"] = draw(SUIT)
    return entry


def entry_fields() -> dict[str, SearchStrategy[Any]]:
    """A hand's fields, each on its own mixed with extremes."""
    return {
        "kind": st.sampled_from(["played", "played", "misdeal"]),
        "bidder": SEAT,
        "bid": st.integers(5, 13),
        "contract": st.sampled_from(["trump", "no_trump", "low_no_trump", "kaiser"]),
        "trump": SUIT,
        "forced": st.booleans(),
        "bidding_team_tricks": st.integers(0, 8),
        "five_hearts": SIDE,
        "three_spades": SIDE,
        "bidder_tricks": st.integers(0, 8),
        "completed_at": st.sampled_from(["2026-11-28T10:00:00Z", "2026-11-28", "yesterday"]),
    }


@st.composite
def hand_fields(draw: Any) -> dict[str, Any]:
    """A hand: mostly a whole plausible one, else field by field with extremes."""
    if draw(st.integers(0, 3)) < 3:  # 0, the simplest example, is a whole plausible hand
        return draw(hand_entry())
    out = {}
    for name, strategy in entry_fields().items():
        if draw(st.integers(0, 2)) == 0:
            continue
        out[name] = draw(mixed(strategy))
    return out
