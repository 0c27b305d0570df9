"""Pairing and bracket algorithms on plain objects: pure Python, no Django import.

One module per format: ``round_robin``, ``swiss`` (its cost in ``swiss_cost``),
``single_elimination``, ``double_elimination``, ``pools``, ``progressive``; ``knockout`` is the
bracket that ends a staged event; ``bracket`` and ``advance`` are the elimination formats'
shared structure and its moves; ``matching`` is the one door to networkx. Inputs and outputs
are the frozen dataclasses of ``model``.
"""

from .advance import Advancement, SlotFill, advance, affected_matches, initial_fills
from .bracket import Bracket, LoserOf, Match, Seeded, Side, SlotRef, Source, Stage, WinnerOf
from .double_elimination import double_elimination
from .knockout import knockout_bracket, qualifiers
from .model import (
    Bye,
    Entrant,
    NoValidPairing,
    PairingError,
    PlannedGame,
    PlannedRound,
    PlayedBye,
    PlayedGame,
    seed_order,
)
from .pools import Pool, knockout_seeds, pool_rounds, pools_knockout, split_into_pools
from .progressive import ProgressiveRound, SitOut, TableOfFour, progressive_round
from .round_robin import round_robin_schedule
from .single_elimination import bracket_positions, seeding_order, single_elimination
from .swiss import swiss_round
from .swiss_cost import TeamState, pair_cost, team_states

__all__ = [
    "Advancement",
    "Bracket",
    "Bye",
    "Entrant",
    "LoserOf",
    "Match",
    "NoValidPairing",
    "PairingError",
    "PlannedGame",
    "PlannedRound",
    "PlayedBye",
    "PlayedGame",
    "Pool",
    "ProgressiveRound",
    "Seeded",
    "Side",
    "SitOut",
    "SlotFill",
    "SlotRef",
    "Source",
    "Stage",
    "TableOfFour",
    "TeamState",
    "WinnerOf",
    "advance",
    "affected_matches",
    "bracket_positions",
    "double_elimination",
    "initial_fills",
    "knockout_bracket",
    "knockout_seeds",
    "pair_cost",
    "pool_rounds",
    "pools_knockout",
    "progressive_round",
    "qualifiers",
    "round_robin_schedule",
    "seed_order",
    "seeding_order",
    "single_elimination",
    "split_into_pools",
    "swiss_round",
    "team_states",
]
