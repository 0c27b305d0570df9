"""What other apps may listen to. Sent after the transaction commits, with ids only:
a tournament advances its bracket on ``game_finished``; standings caches drop on
``game_changed``."""

from django.dispatch import Signal

game_changed = Signal()  # game_id, outcome_may_change (False: in progress before and after)
game_finished = Signal()  # game_id

# Sent inside the transaction, before a correction or an undo changes the outcome of a game
# that had ended (game_id, over, winner: "ns", "ew" or ""). A receiver may refuse the change by
# raising a KaiserError: an event refuses it when the winner has already played on.
game_result_changing = Signal()
