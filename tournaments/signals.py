"""What the tournaments' services say happened, for the receivers that act on it afterwards
(the players' e-mails): sent inside the service's transaction; a receiver waits for the commit."""

from __future__ import annotations

from django.dispatch import Signal

# A bracket match's game made once both its teams are known (``event``, ``pairing_id``): the
# two partnerships now have a table, whatever round the match is in.
match_opened = Signal()
