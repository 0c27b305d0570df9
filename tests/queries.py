"""What a signed-in page pays before its own queries, for the tests that pin query counts.

A signed-in request reads its session (kaiser_club/sessions.py), then its user (Django's
AuthenticationMiddleware): two statements, the first request of a session as every other."""

from __future__ import annotations

SESSION_AND_USER = 2
FIRST_SESSION_AND_USER = SESSION_AND_USER
