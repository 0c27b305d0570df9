"""Pages of a list: ``limit`` and ``offset`` are capped, so a huge number in the query string
is a page like any other, never a database overflow (a 500)."""

from __future__ import annotations

from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request

MAX_LIMIT = 500
MAX_OFFSET = 2**31 - 1  # past the end of any list: an empty page


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    max_limit = MAX_LIMIT

    def get_offset(self, request: Request) -> int:
        return min(super().get_offset(request), MAX_OFFSET)
