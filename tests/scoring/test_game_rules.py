"""A game's rule set is read once per process for each set its rows store
(``scoring.rows_and_rules.game_rules``): what it answers is what reading the stored set
answers, and a set that does not read is refused every time."""

from __future__ import annotations

from typing import Any

import pytest

from scoring import rows_and_rules
from scoring.models import Game
from scoring.rules import PRESETS, RuleSet, RuleSetInvalid


def game_with(rules: dict[str, Any]) -> Game:
    return Game(rules=rules)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_each_preset_reads_as_it_is_stored(name: str) -> None:
    stored = PRESETS[name].to_dict()
    first = rows_and_rules.game_rules(game_with(stored))
    assert first == RuleSet.from_dict(stored)
    assert rows_and_rules.game_rules(game_with(dict(stored))) is first  # read once, then shared


def test_sets_that_differ_only_in_a_value_s_type_are_read_apart() -> None:
    """True and 1 are equal (and hash alike) in Python; as stored options they read apart:
    one is a yes, the other a refusal."""
    stored = PRESETS["standard"].to_dict()
    flag = next(name for name, value in stored.items() if isinstance(value, bool))
    assert rows_and_rules.game_rules(game_with({**stored, flag: True})).to_dict()[flag] is True
    with pytest.raises(RuleSetInvalid):
        rows_and_rules.game_rules(game_with({**stored, flag: 1}))
    with pytest.raises(RuleSetInvalid):  # refused again: a refusal is not kept
        rows_and_rules.game_rules(game_with({**stored, flag: 1}))


def test_a_changed_set_is_read_again() -> None:
    stored: dict[str, Any] = PRESETS["standard"].to_dict()
    changed = {**stored, "target": stored["target"] + 10}
    assert rows_and_rules.game_rules(game_with(changed)).target == stored["target"] + 10
    assert rows_and_rules.game_rules(game_with(stored)).target == stored["target"]
    listed = next(name for name, value in stored.items() if isinstance(value, list))
    fewer = {**stored, listed: stored[listed][:-1] if stored[listed] else []}
    assert rows_and_rules.game_rules(game_with(fewer)) == RuleSet.from_dict(fewer)


def test_the_sets_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rows_and_rules, "_READ_RULES", {})
    monkeypatch.setattr(rows_and_rules, "_READ_RULES_KEPT", 3)
    stored = PRESETS["standard"].to_dict()
    for target in range(50, 70):
        assert rows_and_rules.game_rules(game_with({**stored, "target": target})).target == target
        assert len(rows_and_rules._READ_RULES) <= 3
