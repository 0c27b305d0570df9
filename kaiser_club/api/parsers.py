"""The API's JSON parser: DRF's, refusing text no database can store (a lone surrogate, which
JSON writes as "\\ud800") with a sentence, where it would otherwise reach a column and fail
there (a 500). The event import keeps DRF's parser: it names the row that holds such text."""

from __future__ import annotations

from typing import Any

from rest_framework.parsers import JSONParser

from kaiser_club.errors import InvalidInput
from kaiser_club.request_limits import not_text_text, too_big_number_text, unreadable_value


class StorableJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        data = super().parse(stream, media_type, parser_context)
        fault = unreadable_value(data)  # one walk of the data for both
        if fault == "not_text":
            raise InvalidInput(not_text_text(), code="not_text")
        if fault == "not_number":
            raise InvalidInput(too_big_number_text(), code="not_number")
        return data
