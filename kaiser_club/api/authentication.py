"""Authentication classes of the API."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.authentication import BasicScheme as OpenApiBasicScheme
from rest_framework import authentication, exceptions


class BasicAuthentication(authentication.BasicAuthentication):
    """DRF's basic authentication, refusing a NUL character in the user name or password before
    the database sees it: PostgreSQL rejects NUL in text, and the query raised a 500 (found by
    schemathesis with a fuzzed Authorization header)."""

    def authenticate_credentials(self, userid: str, password: str, request: Any = None) -> Any:
        if "\x00" in userid or "\x00" in password:
            raise exceptions.AuthenticationFailed(_("Invalid username/password."))
        return super().authenticate_credentials(userid, password, request)


class BasicScheme(OpenApiBasicScheme):
    """The schema names it basicAuth, as it did DRF's own class."""

    target_class = "kaiser_club.api.authentication.BasicAuthentication"
