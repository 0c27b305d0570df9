"""What other apps may listen to. Sent after the transaction commits, with ids only:
a tournament advances its bracket on ``game_finished``; standings caches drop on
``game_changed``."""

from django.dispatch import Signal

game_changed = Signal()  # game_id, outcome_may_change (False: in progress before and after)
game_finished = Signal()  # game_id

# Sent inside the transaction, before a correction or an undo changes the outcome of a game
# that had ended (game_id, over, winner: "ns", "ew" or "", roll_back: whoever corrects asked
# that later games fed by this one be rolled back). A receiver may refuse the change by raising
# a KaiserError: an event refuses it when the winner has already played on, unless roll_back.
game_result_changing = Signal()

# Sent inside the transaction before a correction locks the game's row (game_id, roll_back), so
# that a receiver takes first the locks it may need after it: an event about to roll back its
# later games locks its own row, as every service of an event does before its games'.
game_correcting = Signal()
