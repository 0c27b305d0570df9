"""How the public pages say things: placings as "3rd–4th", a game's line on a table list
(teams, score, what state it is in), and the players as their privacy allows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from kaiser_club.models import Player
from scoring.choices import GameStatus

from ..choices import ResultKind, SlotSide
from ..game_result import pairing_result
from ..models import Entry, Pairing


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th… (1er, 2e, 3e… in French)."""
    if n == 1:
        return pgettext("placing", "1st")
    if n % 100 not in (11, 12, 13):
        if n % 10 == 1:
            return pgettext("placing", "%(n)sst") % {"n": n}
        if n % 10 == 2:
            return pgettext("placing", "%(n)snd") % {"n": n}
        if n % 10 == 3:
            return pgettext("placing", "%(n)srd") % {"n": n}
    return pgettext("placing", "%(n)sth") % {"n": n}


def placing_label(band: tuple[int, int] | None) -> str:
    if band is None:
        return ""
    low, high = band
    return ordinal(low) if low == high else f"{ordinal(low)}–{ordinal(high)}"


@dataclass(frozen=True)
class PlayerName:
    id: int
    name: str
    public: bool  # a link to their page


def player_name(player: Player | None) -> PlayerName | None:
    if player is None:
        return None
    return PlayerName(player.id, player.name, player.is_public)


@dataclass(frozen=True)
class Side:
    entry: Entry | None
    name: str
    players: tuple[PlayerName, ...]
    score: int | None
    won: bool


@dataclass(frozen=True)
class GameLine:
    """One game of a round, a bracket or a team's list, as the pages show it."""

    pairing: Pairing
    home: Side
    away: Side | None  # None for a bye
    state: str  # "waiting", "playing", "final", "bye", "forfeit", "adjusted"
    label: str  # the state, said
    live: bool
    ended: str = ""  # how the game ended, said ("reached the target", "forfeit"), from scoring
    ended_short: str = ""  # the same in a word or two, for the bracket's boxes
    said: str = ""  # the result in a sentence: "Les Rois won by forfeit."

    @property
    def winner(self) -> Side | None:
        if self.home.won:
            return self.home
        return self.away if self.away is not None and self.away.won else None

    @property
    def table(self) -> int | None:
        return self.pairing.table.number if self.pairing.table else None


def _players(pairing: Pairing, side: str) -> tuple[PlayerName, ...]:
    team = pairing.home_team if side == SlotSide.HOME else pairing.away_team
    if team is None:
        return ()
    names = (player_name(team.player_one), player_name(team.player_two))
    return tuple(n for n in names if n is not None)


def _side_name(pairing: Pairing, side: str) -> str:
    entry = pairing.home if side == SlotSide.HOME else pairing.away
    if entry is not None:
        return entry.name
    team = pairing.home_team if side == SlotSide.HOME else pairing.away_team
    if team is not None:
        return f"{team.player_one.name} & {team.player_two.name}"
    return _("to be decided")


def game_line(pairing: Pairing) -> GameLine:
    game = pairing.game
    live = (
        pairing.result == ResultKind.PENDING
        and game is not None
        and game.status == GameStatus.IN_PROGRESS
    )
    result = pairing_result(pairing)  # the game's result as every surface shows it
    if result is not None:
        home_score, away_score = result.ns_score, result.ew_score
    else:  # a bye: its points, once its round has them
        home_score, away_score = pairing.home_points, pairing.away_points
    if pairing.result == ResultKind.BYE:
        state, label = "bye", _("bye")
    elif pairing.result == ResultKind.FORFEIT:
        state, label = "forfeit", _("forfeit")
    elif pairing.result == ResultKind.ADJUSTED:
        state, label = "adjusted", _("adjusted by the organiser")
    elif pairing.result == ResultKind.PLAYED:
        state = "final"
        label = _("final")  # how it ended (on time, say) is ``ended``
    elif live and game is not None:
        state = "playing"
        label = (
            _("playing, hand %(n)s") % {"n": game.hand_count + 1}
            if game.hand_count
            else _("playing")
        )
        if game.time_called_at is not None:
            label = _("time called: last hand")
    else:
        state, label = "waiting", _("not started")
    home = Side(
        pairing.home,
        _side_name(pairing, SlotSide.HOME),
        _players(pairing, SlotSide.HOME),
        home_score,
        pairing.winner_side == SlotSide.HOME,
    )
    away = None
    if pairing.result != ResultKind.BYE:
        away = Side(
            pairing.away,
            _side_name(pairing, SlotSide.AWAY),
            _players(pairing, SlotSide.AWAY),
            away_score,
            pairing.winner_side == SlotSide.AWAY,
        )
    # How a decided game ended, and the sentence (``scoring.results``): a forfeit recorded by
    # the organiser, with or without a game, is a forfeit.
    ended = ended_short = said = ""
    if result is not None and result.finished:
        ended, ended_short = result.how_text, result.how_short
        said = result.sentence(home.name, away.name if away is not None else "")
    return GameLine(pairing, home, away, state, label, live, ended, ended_short, said)


@dataclass
class NowPlaying:
    """What each team (by entry id) and each player (by player id) is playing now:
    "v Team X, table 4", for the standings' last column."""

    entries: dict[int, str]
    players: dict[int, str]


def now_playing(games: list[dict[str, Any]]) -> NowPlaying:
    """From ``selectors.now_playing_rows``: whom and where, not the running score, so the
    standings change when a result does and not with every hand (the score is on the live
    page, the home page and the game's sheet)."""
    found = NowPlaying({}, {})
    for game in games:
        sides = []
        for side in ("home", "away"):
            players = (game[f"{side}_team__player_one_id"], game[f"{side}_team__player_two_id"])
            name = game[f"{side}__name"] or " & ".join(
                n
                for n in (
                    game[f"{side}_team__player_one__name"],
                    game[f"{side}_team__player_two__name"],
                )
                if n
            )
            sides.append((game[f"{side}_id"], players, name))
        for me, them in ((sides[0], sides[1]), (sides[1], sides[0])):
            entry, players = me[0], me[1]
            text = _("v %(name)s") % {"name": them[2]}
            if game["table__number"]:
                text += ", " + _("table %(n)s") % {"n": game["table__number"]}
            if entry is not None:
                found.entries[entry] = text
            for player in players:
                if player is not None:
                    found.players[player] = text
    return found
