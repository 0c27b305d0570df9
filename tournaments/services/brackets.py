"""Elimination brackets as rows: build them from the pure ``pairing`` module's ``Bracket``,
rebuild that ``Bracket`` from the rows, and carry a result to the next matches.

The pure module decides where a winner and a loser go (``advance``) and which later matches a
changed result touches (``affected_matches``); this module only reads and writes rows. Rounds
of a bracket are "waves": a match's round is one more than the latest round among the matches
that feed it, so the games of one round can be played at the same time (W2 with L1, …).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db.models import Q

from scoring.choices import GameStatus
from scoring.rules import RuleSet

from ..choices import EntryStatus, Format, ResultKind, SlotSide
from ..models import Entry, Event, Pairing, Round
from ..pairing.advance import advance, affected_matches
from ..pairing.bracket import Bracket, LoserOf, Match, Seeded, Side, SlotRef, Stage, WinnerOf
from ..pairing.double_elimination import double_elimination
from ..pairing.model import Entrant
from ..pairing.single_elimination import single_elimination
from .games import event_rules, game_touched, games_for, pairing_game_open
from .tables import tables_ensure

STAGE_NAMES = {
    Stage.WINNERS: "W",
    Stage.LOSERS: "L",
    Stage.GRAND_FINAL: "GF",
    Stage.GRAND_FINAL_RESET: "GF2",
    Stage.THIRD_PLACE: "3P",
}


def make_bracket(event: Event, entrants: Sequence[Entrant]) -> Bracket:
    if event.format == Format.DOUBLE_ELIMINATION:
        return double_elimination(entrants, reset=event.grand_final_reset)
    return single_elimination(entrants, third_place=event.third_place)


def waves(bracket: Bracket) -> dict[int, int]:
    """The event round of each match: one after the latest match feeding it."""
    wave: dict[int, int] = {}
    for match in bracket:
        before = [
            wave[source.match]
            for source in (match.home, match.away)
            if isinstance(source, WinnerOf | LoserOf)
        ]
        wave[match.id] = 1 + max(before, default=0)
    return wave


def store_bracket(
    *,
    event: Event,
    bracket: Bracket,
    entries: dict[int, Entry],
    first_round: int = 1,
    by: User | None,
) -> list[Round]:
    """Rows for every match of ``bracket`` (rounds numbered from ``first_round``), with the
    games whose two teams are already known."""
    wave = waves(bracket)
    rounds: dict[int, Round] = {}
    for number in sorted(set(wave.values())):
        codes = sorted(
            {
                STAGE_NAMES[m.stage]
                + (str(m.round) if m.stage in (Stage.WINNERS, Stage.LOSERS) else "")
                for m in bracket
                if wave[m.id] == number
            }
        )
        rounds[number] = Round.objects.create(
            event=event,
            number=first_round + number - 1,
            label=f"Round {first_round + number - 1} ({', '.join(codes)})",
        )
    rows: dict[int, Pairing] = {}
    for match in bracket:
        row = Pairing(
            event=event,
            round=rounds[wave[match.id]],
            match_number=match.id,
            code=match.code,
            stage=match.stage.value,
            conditional=match.conditional,
            first_dealer_home=match.id % 2 == 1,
        )
        for side, source in ((SlotSide.HOME, match.home), (SlotSide.AWAY, match.away)):
            if isinstance(source, Seeded):
                _fill(row, side, entries[source.team])
                setattr(row, f"{side}_seeded", True)
        rows[match.id] = row
    # The games whose teams are known (the first round, and a bye's next match), each at
    # its own table, made before the rows so that no row is written twice.
    ready = [row for row in rows.values() if row.home is not None and row.away is not None]
    tables = tables_ensure(event=event, count=len(ready))
    rules = event_rules(event)
    for number, row in enumerate(ready, start=1):
        row.table = tables[number]
    games_for(event=event, pairings=ready, rules=rules, by=by)
    # A match's winner and loser go to matches of later rounds: writing the rounds last
    # first, every link points at a row that already has its id.
    for number in sorted(set(wave.values()), reverse=True):
        batch = [rows[m.id] for m in bracket if wave[m.id] == number]
        for row in batch:
            match = bracket.match(row.match_number or 0)
            if match.winner_to:
                row.winner_to = rows[match.winner_to.match]
                row.winner_to_side = match.winner_to.side.value
            if match.loser_to:
                row.loser_to = rows[match.loser_to.match]
                row.loser_to_side = match.loser_to.side.value
        Pairing.objects.bulk_create(batch)
    return list(rounds.values())


def _fill(row: Pairing, side: str, entry: Entry | None) -> None:
    setattr(row, side, entry)
    setattr(row, f"{side}_team", entry.team if entry else None)


ROW_RELATED = (
    "home__team__player_one",
    "home__team__player_two",
    "away__team__player_one",
    "away__team__player_two",
    "game",
    "table",
)


class BracketRows:
    """The bracket's rows by match number, read from the database when first asked for (the
    structure alone is enough for the pure module; only the rows a result touches are read)."""

    def __init__(self, ids: dict[int, int]) -> None:
        self.ids = ids
        self.cache: dict[int, Pairing] = {}

    def fetch(self, numbers: Iterable[int]) -> None:
        missing = {self.ids[n] for n in numbers if n not in self.cache}
        if missing:
            for row in Pairing.objects.filter(id__in=missing).select_related(*ROW_RELATED):
                assert row.match_number is not None
                self.cache[row.match_number] = row

    def __getitem__(self, number: int) -> Pairing:
        self.fetch([number])
        return self.cache[number]


@dataclass
class LoadedBracket:
    bracket: Bracket
    rows: BracketRows

    def row_of(self, pairing: Pairing) -> Pairing:
        assert pairing.match_number is not None
        return self.rows[pairing.match_number]


def load_bracket(event: Event, *, lock: bool = False) -> LoadedBracket:
    """The event's bracket as the pure ``Bracket`` (one light query); rows come on demand.
    Callers that write hold the event's row lock, which serialises every change to it."""
    fields = (
        "id",
        "match_number",
        "code",
        "stage",
        "conditional",
        "home_id",
        "away_id",
        "home_seeded",
        "away_seeded",
        "winner_to_id",
        "winner_to_side",
        "loser_to_id",
        "loser_to_side",
    )
    records = list(
        Pairing.objects.filter(event=event, match_number__isnull=False)
        .order_by("match_number")
        .values_list(*fields)
    )
    numbers = {r[0]: r[1] for r in records}
    inbound: dict[tuple[int, str], WinnerOf | LoserOf] = {}
    for _id, number, *_, winner_to, winner_side, loser_to, loser_side in records:
        if winner_to:
            inbound[(numbers[winner_to], winner_side)] = WinnerOf(number)
        if loser_to:
            inbound[(numbers[loser_to], loser_side)] = LoserOf(number)
    matches = []
    for record in records:
        (
            _id,
            number,
            code,
            stage,
            conditional,
            home,
            away,
            home_seeded,
            away_seeded,
            winner_to,
            winner_side,
            loser_to,
            loser_side,
        ) = record
        sources: list[Seeded | WinnerOf | LoserOf] = []
        for side, seeded, entry_id in (
            (SlotSide.HOME, home_seeded, home),
            (SlotSide.AWAY, away_seeded, away),
        ):
            sources.append(
                Seeded(team=entry_id, seed=0) if seeded else inbound[(number, side.value)]
            )
        matches.append(
            Match(
                id=number,
                code=code,
                stage=Stage(stage),
                round=0,
                home=sources[0],
                away=sources[1],
                winner_to=SlotRef(numbers[winner_to], Side(winner_side)) if winner_to else None,
                loser_to=SlotRef(numbers[loser_to], Side(loser_side)) if loser_to else None,
                conditional=conditional,
            )
        )
    rows = BracketRows({number: id_ for id_, number in numbers.items()})
    return LoadedBracket(Bracket(matches=tuple(matches), seeds=()), rows)


Undecided = list[tuple[Pairing, list[Entry]]]  # a game no one will play, its withdrawn teams


def carry_result(
    *, event: Event, loaded: LoadedBracket, row: Pairing, by: User | None = None
) -> Undecided:
    """Fills the slots the decided ``row`` feeds, cancels a reset that will not be played, and
    opens the games whose two teams are now known. Returns the games a withdrawn team
    cannot play, for the caller to decide at once (deciding one carries it on in turn)."""
    if row.advanced or row.match_number is None:
        return []
    winner, loser = row.winner, row.loser
    # By match number: one result can fill both slots of a match (the grand final's winner
    # and loser both go on to the reset), and that match must be opened once, not per slot.
    touched: dict[int, Pairing] = {}
    if winner is not None and loser is not None and row.home_id and row.away_id:
        moves = advance(
            loaded.bracket, row.match_number, home=row.home_id, away=row.away_id, winner=winner.id
        )
        by_id = {row.home_id: row.home, row.away_id: row.away}
        loaded.rows.fetch([f.match for f in moves.fills] + list(moves.cancelled))
        for fill in moves.fills:
            target = loaded.rows[fill.match]
            _fill(target, fill.side.value, by_id[fill.team])
            touched[fill.match] = target
        for number in moves.cancelled:
            target = loaded.rows[number]
            target.cancelled = True
            touched[number] = target
    row.advanced = True
    row.save(update_fields=["advanced"])
    for target in touched.values():
        target.save(update_fields=["home", "home_team", "away", "away_team", "cancelled"])
    ready = [
        t
        for t in touched.values()
        if t.home_id and t.away_id and not t.cancelled and t.game_id is None
    ]
    return open_games(event=event, rows=ready, by=by) if ready else []


def open_games(
    *,
    event: Event,
    rows: Sequence[Pairing],
    by: User | None = None,
    rules: RuleSet | None = None,
) -> Undecided:
    """Creates the games of bracket rows whose teams are known, each at the lowest table that
    has no game in play and none in the same round. Each row takes one game: a row that has
    one by the time it is written keeps it. Returns the rows a withdrawn team cannot play,
    for the caller to decide after these games are opened (deciding one carries the result on
    and may open later games, at tables this count has not seen)."""
    rules = rules or event_rules(event)
    busy = Pairing.objects.filter(event=event, table__isnull=False).filter(
        Q(game__status=GameStatus.IN_PROGRESS) | Q(round_id__in={r.round_id for r in rows})
    )
    playing: set[int] = set()
    per_round: dict[int, set[int]] = {}
    for round_id, number, status in busy.values_list("round_id", "table__number", "game__status"):
        per_round.setdefault(round_id, set()).add(number)
        if status == GameStatus.IN_PROGRESS:
            playing.add(number)
    plans: list[tuple[Pairing, int]] = []
    without_game: Undecided = []
    for row in {r.id: r for r in rows}.values():
        home, away = row.home, row.away
        assert home is not None and away is not None
        withdrawn = [e for e in (home, away) if e.status == EntryStatus.WITHDRAWN]
        if withdrawn:
            without_game.append((row, withdrawn))
            continue
        taken = playing | per_round.setdefault(row.round_id, set())
        number = next(n for n in range(1, len(taken) + 2) if n not in taken)
        per_round[row.round_id].add(number)
        playing.add(number)
        plans.append((row, number))
    if plans:
        tables = tables_ensure(event=event, count=max(n for _, n in plans))
        for row, number in plans:
            pairing_game_open(event=event, pairing=row, table=tables[number], rules=rules, by=by)
    return without_game


def later_activity(loaded: LoadedBracket, row: Pairing) -> list[Pairing]:
    """The later matches fed by ``row`` in which something has happened: a game under way or
    over, or a result set by hand. Changing ``row``'s winner would undo them."""
    assert row.match_number is not None
    found = []
    affected = affected_matches(loaded.bracket, row.match_number)
    loaded.rows.fetch(affected)
    for number in affected:
        later = loaded.rows[number]
        if (later.game is not None and game_touched(later.game)) or (
            later.decided and later.result != ResultKind.PENDING
        ):
            found.append(later)
    return found


def rows_after(loaded: LoadedBracket, row: Pairing) -> list[Pairing]:
    """The later matches fed by ``row`` that have a game or a result."""
    assert row.match_number is not None
    affected = affected_matches(loaded.bracket, row.match_number)
    loaded.rows.fetch(affected)
    later = [loaded.rows[n] for n in affected]
    return [p for p in later if p.game_id or p.decided]


def clear_after(loaded: LoadedBracket, row: Pairing) -> None:
    """Takes back everything ``row``'s result carried forward: the later matches' slots that
    came from it (directly or through them), their results and their games (detached; the
    caller deletes the untouched ones)."""
    assert row.match_number is not None
    affected = affected_matches(loaded.bracket, row.match_number)
    loaded.rows.fetch(affected)
    sources = {*affected, row.match_number}
    for number in affected:
        later = loaded.rows[number]
        match = loaded.bracket.match(number)
        for side in (SlotSide.HOME, SlotSide.AWAY):
            source = match.source(Side(side.value))
            if isinstance(source, WinnerOf | LoserOf) and source.match in sources:
                _fill(later, side.value, None)
        later.game = None
        later.table = None
        later.result = ResultKind.PENDING
        later.winner_side = ""
        later.home_points = later.away_points = None
        later.reason = ""
        later.advanced = False
        later.cancelled = False
        later.save()
    row.advanced = False
    row.save(update_fields=["advanced"])
