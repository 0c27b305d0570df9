"""What a page in French may show in English, and how English is recognised.

Shared by the page test (Django test client, ``tests/ui/test_french_pages.py``) and the browser
test of every page: both take the visible text of a page shown in French, drop the allowed
names (``ALLOWED``) and fail on any word of ``ENGLISH_WORDS`` left in it.

``ENGLISH_WORDS`` holds words that are English and not French: a French page that shows one
has a string left untranslated. Words both languages write alike (table, minutes, pause,
format, date, club, points, code, total, final, place, rang…) are not in it, so they never
fail a page."""

from __future__ import annotations

import re

# Names that are the same in both languages, or not words of either.
ALLOWED: tuple[str, ...] = (
    "Kaiser Club",
    "Kaiser",
    "English",  # the language switch offers English on French pages
    "API",
    "PDF",
    "JSON",
    "CSV",
    "QR",
)

ENGLISH_WORDS: frozenset[str] = frozenset(
    """
    the and of to is are was were be been with for from this that these those not yet your you
    will would can cannot could should has have had its it which who what when where why how
    there here then than them they their our we all every each any some none only also after
    before until while into onto over under about again back out off up down by
    round rounds game games hand hands player players team teams bid bids bidder
    win wins won lost losses loss draw drawn standings bracket brackets tie break breaks
    rule rules settings setting report reports generate generated generation next previous
    clock start started resume add remove withdraw withdrawn check checked undo entry entries
    event events sign signed members member link new open save import export
    score scores sheet sheets seat seats north south east west pool pools partnership home
    away forfeit bye byes played playing time left deadline paused called late
    semi-final quarter-final third first winner winners loser losers reset
    yes no none nothing everything everyone someone
    projector live leaders placings still ranked against
    rating ratings statistics history reason who when
    order target trump hearts spades diamonds
    name names role roles scorekeeper keeper
    enter entering confirm confirmed waiting pending agree agreed
    """.split()  # noqa: SIM905 (a word list reads better as text)
)

WORD = re.compile(r"[A-Za-zÀ-ÿ’'_-]+")


def visible_text(html: str) -> str:
    """The text a person reads: tags, scripts and styles dropped; titles, placeholders and
    labels for controls kept."""
    # What is not words: scripts, styles, and <code> (a CSV column, a table code, a value typed
    # as is), which reads the same in every language.
    html = re.sub(r"<(script|style|template|code)\b.*?</\1>", " ", html, flags=re.S | re.I)
    html = re.sub(r"<!--.*?-->", " ", html, flags=re.S)
    attrs = re.findall(r'\b(?:title|placeholder|aria-label|alt)="([^"]*)"', html)
    text = re.sub(r"<[^>]+>", " ", html)
    text = " ".join([text, *attrs])
    text = (
        text.replace("&nbsp;", " ")
        .replace("&#x27;", "'")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
        .replace("&quot;", '"')
    )
    return re.sub(r"\s+", " ", text)


def english_left(text: str, *, also_allowed: tuple[str, ...] = ()) -> list[str]:
    """Each English word of ``text`` with a few words around it, after removing the allowed
    names (``ALLOWED`` and the page's own: team, player and club names)."""
    text = re.sub(r"«[^»]*»", " ", text)  # a value quoted as typed: « new », « club_admin »
    for name in sorted((*ALLOWED, *also_allowed), key=len, reverse=True):
        text = text.replace(name, " ")
    words = WORD.findall(text)
    found = []
    for i, word in enumerate(words):
        # an English word, or a code (no_trump, point_difference) shown as is
        if word.lower() in ENGLISH_WORDS or "_" in word.strip("_"):
            found.append(" ".join(words[max(0, i - 3) : i + 4]))
    return found
