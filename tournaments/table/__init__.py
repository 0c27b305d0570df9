"""The table page: what a scorekeeper's tablet or phone shows at a table, and its endpoints.

Reached by the table's code (QR link ``/t/<code>/``), which grants that device the right to
write that table's current game (a signed cookie scoped to the table's path), or by a signed-in
member of the event's club with the role for it. The scoring side knows nothing of events:
these views read the event's verification flag and pass it to ``scoring.services``.
"""
