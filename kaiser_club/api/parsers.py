"""The API's JSON parsers: DRF's, saying in the reader's language why a body is not JSON (DRF
answers "JSON parse error - 'utf-8' codec can't decode byte 0xff…", Python's words in
English), and, for every endpoint but the event import, refusing text no database can store
(a lone surrogate, which JSON writes as "\\ud800") with a sentence, where it would otherwise
reach a column and fail there (a 500). The import names the row that holds such text."""

from __future__ import annotations

import json
from typing import Any

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from kaiser_club.errors import InvalidInput
from kaiser_club.request_limits import not_text_text, too_big_number_text, unreadable_value
from kaiser_club.sentences import N_, Said


class ReadableJSONParser(JSONParser):
    """DRF's parser, with a body that is not JSON refused in words (code ``parse_error``)."""

    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except ParseError as exc:
            cause = exc.__context__
            if isinstance(cause, ValueError) and "integer string conversion" in str(cause):
                raise InvalidInput(too_big_number_text(), code="not_number") from None
            raise InvalidInput(not_json(cause), code="parse_error") from None


class StorableJSONParser(ReadableJSONParser):
    def parse(self, stream: Any, media_type: Any = None, parser_context: Any = None) -> Any:
        data = super().parse(stream, media_type, parser_context)
        fault = unreadable_value(data)  # one walk of the data for both
        if fault == "not_text":
            raise InvalidInput(not_text_text(), code="not_text")
        if fault == "not_number":
            raise InvalidInput(too_big_number_text(), code="not_number")
        return data


def not_json(cause: BaseException | None) -> Said:
    """Why a body is not JSON, as a person sending it can mend it."""
    if isinstance(cause, UnicodeDecodeError):
        return N_(
            "The body is not JSON: it is not %(charset)s text. Send JSON encoded as UTF-8.",
            charset=cause.encoding.upper(),
        )
    if isinstance(cause, json.JSONDecodeError):
        return N_(
            "The body is not JSON: it stops making sense at line %(line)s, column %(column)s.",
            line=cause.lineno,
            column=cause.colno,
        )
    if isinstance(cause, ValueError) and "Out of range float" in str(cause):
        return N_("The body is not JSON: NaN and Infinity are not JSON numbers.")
    return N_("The body is not JSON. Send JSON encoded as UTF-8.")
