"""Word to the players who signed up: messages written in the transaction that made the change
(``queue``), said in each player's language (``compose``), sent by a Celery task once it has
committed and retried when the mail server or push service fails (``sending``, ``tasks``)."""
