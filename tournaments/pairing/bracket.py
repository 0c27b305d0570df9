"""The shape of an elimination bracket: matches linked by "the winner goes to match Y as home".

A database layer stores one row per ``Match`` and its two slots; when a match is decided it
fills the slots its ``winner_to`` and ``loser_to`` point at (see ``advance``). Byes never
appear: a match against a bye is decided without play when the bracket is built, so every
``Match`` here is a game to be played (except a ``conditional`` one, which is played only
when its condition holds), and a team with a bye is placed directly into the later match.

Builders write a draft of the full bracket (every slot of a power-of-two draw, byes
included) and ``compress`` removes the bye matches, re-pointing the links around them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum


class Stage(StrEnum):
    WINNERS = "winners"
    LOSERS = "losers"
    GRAND_FINAL = "grand_final"
    GRAND_FINAL_RESET = "grand_final_reset"
    THIRD_PLACE = "third_place"


class Side(StrEnum):
    HOME = "home"  # North-South
    AWAY = "away"  # East-West


@dataclass(frozen=True, slots=True)
class Seeded:
    """A slot filled from the start by the team with this seed."""

    team: int
    seed: int


@dataclass(frozen=True, slots=True)
class WinnerOf:
    match: int


@dataclass(frozen=True, slots=True)
class LoserOf:
    match: int


Source = Seeded | WinnerOf | LoserOf


@dataclass(frozen=True, slots=True)
class SlotRef:
    match: int
    side: Side


@dataclass(frozen=True, slots=True)
class Match:
    """One game of a bracket.

    ``id`` runs 1, 2, … in an order in which the matches can be played. ``code`` is for
    people: ``W2-1`` is the first match of the winners' bracket's second round, ``L3-2``
    the losers' bracket's, ``GF`` / ``GF2`` the grand final and its reset, ``3P`` the
    third-place game. ``conditional`` (the reset) is played only if the team in the away
    slot of the match feeding it wins that match.
    """

    id: int
    code: str
    stage: Stage
    round: int
    home: Source
    away: Source
    winner_to: SlotRef | None = None
    loser_to: SlotRef | None = None
    conditional: bool = False

    def source(self, side: Side) -> Source:
        return self.home if side is Side.HOME else self.away


@dataclass(frozen=True, slots=True)
class Bracket:
    """The matches of an elimination event, ``matches[i].id == i + 1``.

    ``seeds``: team ids, seed 1 first. ``byes``: teams that enter after the first round.
    """

    matches: tuple[Match, ...]
    seeds: tuple[int, ...]
    byes: tuple[int, ...] = ()

    def match(self, match_id: int) -> Match:
        if not 1 <= match_id <= len(self.matches):
            raise KeyError(match_id)
        return self.matches[match_id - 1]

    def __iter__(self) -> Iterator[Match]:
        return iter(self.matches)

    def __len__(self) -> int:
        return len(self.matches)

    @property
    def games(self) -> int:
        """Matches that are always played (the reset is not counted)."""
        return sum(1 for match in self.matches if not match.conditional)

    def stage(self, stage: Stage) -> tuple[Match, ...]:
        return tuple(match for match in self.matches if match.stage is stage)


# --- drafting -------------------------------------------------------------------------------


class ByeSlot:
    """An empty slot of the draft."""

    _instance: ByeSlot | None = None

    def __new__(cls) -> ByeSlot:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "BYE"


BYE = ByeSlot()

DraftSource = Seeded | WinnerOf | LoserOf | ByeSlot


@dataclass(frozen=True, slots=True)
class Draft:
    """A match of the full draw; ``WinnerOf``/``LoserOf`` here name draft indices (0-based)."""

    stage: Stage
    round: int
    home: DraftSource
    away: DraftSource
    conditional: bool = False


def compress(drafts: Sequence[Draft], seeds: Sequence[int]) -> Bracket:
    """The bracket without its bye matches. Drafts must only refer to earlier drafts."""
    new_id: dict[int, int] = {}
    bye_winner: dict[int, DraftSource] = {}

    def resolve(source: DraftSource, at: int) -> DraftSource:
        if isinstance(source, WinnerOf | LoserOf):
            if source.match >= at:
                raise ValueError(f"draft {at} refers to a later draft {source.match}")
            if source.match in bye_winner:
                return bye_winner[source.match] if isinstance(source, WinnerOf) else BYE
            if isinstance(source, WinnerOf):
                return WinnerOf(new_id[source.match])
            return LoserOf(new_id[source.match])
        return source

    kept: list[tuple[Draft, Source, Source]] = []
    byes: list[int] = []
    for index, draft in enumerate(drafts):
        home, away = resolve(draft.home, index), resolve(draft.away, index)
        if isinstance(home, ByeSlot) or isinstance(away, ByeSlot):
            bye_winner[index] = away if isinstance(home, ByeSlot) else home
            if draft.round == 1 and draft.stage is Stage.WINNERS:
                survivor = bye_winner[index]
                if isinstance(survivor, Seeded):
                    byes.append(survivor.team)
            continue
        assert not isinstance(home, ByeSlot) and not isinstance(away, ByeSlot)
        new_id[index] = len(kept) + 1
        kept.append((draft, home, away))

    winner_to: dict[int, SlotRef] = {}
    loser_to: dict[int, SlotRef] = {}
    for match_id, (_, home, away) in enumerate(kept, start=1):
        for side, source in ((Side.HOME, home), (Side.AWAY, away)):
            if isinstance(source, WinnerOf | LoserOf):
                links = winner_to if isinstance(source, WinnerOf) else loser_to
                assert source.match not in links, "a result feeds two slots"
                links[source.match] = SlotRef(match_id, side)

    counters: dict[tuple[Stage, int], int] = {}
    matches: list[Match] = []
    for match_id, (draft, home, away) in enumerate(kept, start=1):
        key = (draft.stage, draft.round)
        counters[key] = counters.get(key, 0) + 1
        matches.append(
            Match(
                id=match_id,
                code=_code(draft.stage, draft.round, counters[key]),
                stage=draft.stage,
                round=draft.round,
                home=home,
                away=away,
                winner_to=winner_to.get(match_id),
                loser_to=loser_to.get(match_id),
                conditional=draft.conditional,
            )
        )
    return Bracket(matches=tuple(matches), seeds=tuple(seeds), byes=tuple(byes))


def _code(stage: Stage, round_number: int, index: int) -> str:
    if stage is Stage.WINNERS:
        return f"W{round_number}-{index}"
    if stage is Stage.LOSERS:
        return f"L{round_number}-{index}"
    if stage is Stage.GRAND_FINAL:
        return "GF"
    if stage is Stage.GRAND_FINAL_RESET:
        return "GF2"
    return "3P"
