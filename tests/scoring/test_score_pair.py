"""Two scores as every page prints them: "52–0", and a negative one that reads as such."""

from __future__ import annotations

import pytest
from django.template import Context, Template

from scoring.results import GameResult, score_pair


@pytest.mark.parametrize(
    ("first", "second", "shown"),
    [
        (52, 0, "52–0"),
        (19, -16, "19\u202f–\u202f\u221216"),
        (-4, 58, "\u22124\u202f–\u202f58"),
        (None, None, "–––"),
        (None, 7, "––7"),
    ],
)
def test_a_pair_of_scores(first, second, shown):
    assert score_pair(first, second) == shown
    assert "–-" not in shown


def test_the_result_and_the_template_tag_print_the_same_pair():
    assert GameResult(ns_score=58, ew_score=-4).score_text == "58\u202f–\u202f\u22124"
    page = Template("{% load result_words %}{% score_pair a b %}").render(
        Context({"a": 19, "b": -16})
    )
    assert page == "19\u202f–\u202f\u221216"


@pytest.mark.parametrize(
    ("score", "change", "shown"),
    [(52, 11, "52 +11"), (-16, -3, "\u221216 \u22123"), (0, 0, "0 +0")],
)
def test_one_score_and_a_change_of_score_read_as_signed(score, change, shown):
    """The sheets, previews, standings and PDFs print a single score and a change with a true
    minus sign: "−16", "−3", as the pair does."""
    page = Template("{% load result_words %}{{ s|score }} {{ c|score_change }}").render(
        Context({"s": score, "c": change})
    )
    assert page == shown
