"""The OpenAPI schema's AutoSchema: every operation also lists the error answers the project
gives everywhere, so a client (and schemathesis) finds each real answer in the schema.

- 400 when the operation takes a body or query parameters (a message per field, DRF's shape);
- 403 unless anyone may call it (DRF answers 403, not 401, to a missing or wrong sign-in:
  session authentication comes first and sends no WWW-Authenticate challenge);
- 404 when its path names an object;
- 415 when it takes a body (DRF refuses a content type it does not parse);
- 503 everywhere: the database is briefly away (kaiser_club.middleware).

An operation that documents one of these codes itself keeps its own description. They are
added to what drf-spectacular's ``AutoSchema.get_operation`` answers (the method DRF's own
schema inspectors are extended by), reading only the operation it built.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ComponentRegistry
from rest_framework.permissions import AllowAny

from kaiser_club.middleware import UNAVAILABLE_MESSAGE

ERROR_BODY: dict[str, Any] = {
    "type": "object",
    "description": "A sentence under `detail` (and a machine `code`), or messages per field.",
    "properties": {"detail": {"type": "string"}, "code": {"type": "string"}},
    "additionalProperties": True,
}
UNAVAILABLE_BODY: dict[str, Any] = {
    "type": "object",
    "properties": {
        "detail": {"type": "string", "example": UNAVAILABLE_MESSAGE},
        "code": {"type": "string", "enum": ["database_unavailable"]},
    },
    "required": ["detail", "code"],
}
BODY_METHODS = {"POST", "PUT", "PATCH"}


def _answer(description: str, body: dict[str, Any]) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": body}}}


class KaiserAutoSchema(AutoSchema):
    def get_operation(
        self,
        path: str,
        path_regex: str,
        path_prefix: str,
        method: str,
        registry: ComponentRegistry,
    ) -> dict[str, Any] | None:
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:  # excluded from the schema
            return None
        responses = operation.setdefault("responses", {})
        for code, answer in self.common_errors(operation).items():
            responses.setdefault(code, answer)
        return operation

    def common_errors(self, operation: dict[str, Any]) -> dict[str, dict[str, Any]]:
        errors: dict[str, dict[str, Any]] = {}
        takes_body = self.method in BODY_METHODS
        has_query = any(p.get("in") == "query" for p in operation.get("parameters", ()))
        if takes_body or has_query:
            errors["400"] = _answer(
                "The request breaks a rule or holds a malformed value; a message per field.",
                ERROR_BODY,
            )
        if not self.anyone_may_call():
            errors["403"] = _answer("Not signed in, or your role does not allow this.", ERROR_BODY)
        if "{" in self.path:
            errors["404"] = _answer("No such object, or not one you can see.", ERROR_BODY)
        if takes_body:
            errors["415"] = _answer("The body's content type is not one this accepts.", ERROR_BODY)
        errors["503"] = _answer(UNAVAILABLE_MESSAGE, UNAVAILABLE_BODY)
        return errors

    def anyone_may_call(self) -> bool:
        permissions = self.view.get_permissions()
        return bool(permissions) and all(isinstance(p, AllowAny) for p in permissions)
