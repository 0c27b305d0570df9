"""Django choices mirroring the rules engine's enums, so the database stores the same values."""

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class SeatChoice(models.IntegerChoices):
    NORTH = 0, _("North")
    EAST = 1, _("East")
    SOUTH = 2, _("South")
    WEST = 3, _("West")


class TeamChoice(models.TextChoices):
    NS = "ns", _("North–South")
    EW = "ew", _("East–West")


class SuitChoice(models.TextChoices):
    CLUBS = "clubs", _("Clubs")
    DIAMONDS = "diamonds", _("Diamonds")
    HEARTS = "hearts", _("Hearts")
    SPADES = "spades", _("Spades")


class ContractChoice(models.TextChoices):
    TRUMP = "trump", _("Trump")
    NO_TRUMP = "no_trump", _("No trump")
    LOW_NO_TRUMP = "low_no_trump", _("Low no trump")
    KAISER = "kaiser", _("Kaiser")


class HandKindChoice(models.TextChoices):
    PLAYED = "played", _("Played")
    MISDEAL = "misdeal", _("Misdeal")


class MisdealReasonChoice(models.TextChoices):
    NO_HONOURS = "no_honours", _("No ace, face card, 5♥ or 3♠")
    NO_FACE_CARD = "no_face_card", _("No face card")
    FOUR_OF_A_KIND = "four_of_a_kind", _("Four 8s, 9s or 10s")
    ALL_PASS = "all_pass", _("All passed")


class EndReasonChoice(models.TextChoices):
    TARGET = "target", _("Reached the target")
    MINUS_LINE = "minus_line", _("Minus line")
    KAISER_BID = "kaiser_bid", _("Kaiser bid")
    STEAL_THE_FIVE = "steal_the_five", _("Stole the five")
    TIME = "time", _("Time")
    FORFEIT = "forfeit", _("Forfeit")


def end_reason_text(reason: str) -> str:
    """How a game ended, said for a person: the one wording of every surface (the table's end
    screen, the public score sheet and bracket). ``reason`` is an ``EndReasonChoice`` value."""
    texts = {
        EndReasonChoice.TARGET: _("reached the target"),
        EndReasonChoice.MINUS_LINE: _("the other partnership fell to the minus line"),
        EndReasonChoice.KAISER_BID: _("the Kaiser bid"),
        EndReasonChoice.STEAL_THE_FIVE: _("stole the five"),
        EndReasonChoice.TIME: _("the higher score when time was up"),
        EndReasonChoice.FORFEIT: _("forfeit"),
    }
    return str(texts.get(reason, reason))  # type: ignore[call-overload]


def end_reason_short(reason: str) -> str:
    """``end_reason_text`` in a word or two, where room is short (a bracket's box)."""
    texts = {
        EndReasonChoice.TARGET: pgettext_lazy("how a game ended", "target"),
        EndReasonChoice.MINUS_LINE: pgettext_lazy("how a game ended", "minus line"),
        EndReasonChoice.KAISER_BID: pgettext_lazy("how a game ended", "Kaiser bid"),
        EndReasonChoice.STEAL_THE_FIVE: pgettext_lazy("how a game ended", "stole the five"),
        EndReasonChoice.TIME: pgettext_lazy("how a game ended", "on time"),
        EndReasonChoice.FORFEIT: pgettext_lazy("how a game ended", "forfeit"),
    }
    return str(texts.get(reason, reason))  # type: ignore[call-overload]


class GameStatus(models.TextChoices):
    IN_PROGRESS = "in_progress", _("In progress")
    FINISHED = "finished", pgettext_lazy("a game's status (une partie)", "Finished")


class HandStatus(models.TextChoices):
    """A hand entered where verification is on waits, pending, for the other partnership."""

    CONFIRMED = "confirmed", _("Confirmed")
    PENDING = "pending", _("Waiting for confirmation")


class HandAction(models.TextChoices):
    RECORD = "record", _("Recorded")
    UNDO = "undo", _("Undone")
    CORRECT = "correct", _("Corrected")
    CALL_TIME = "call_time", _("Time called")
    FORFEIT = "forfeit", _("Forfeit")
    FORFEIT_UNDO = "forfeit_undo", _("Forfeit taken back")
    CONFIRM = "confirm", _("Confirmed by the other partnership")
    DISCARD = "discard", _("Discarded before confirmation")
    ACKNOWLEDGE = "acknowledge", _("Result acknowledged")
