"""What a signed-in page pays before its own queries, for the tests that pin query counts.

A session's first request in a worker reads the session and then its user (2); from then on
the worker knows whose the session is and reads both in one statement on PostgreSQL
(kaiser_club/sessions.py, kaiser_club/signed_in.py); elsewhere it is always two."""

from __future__ import annotations

from django.db import connection

SESSION_AND_USER = 1 if connection.vendor == "postgresql" else 2
FIRST_SESSION_AND_USER = 2
