"""The Content-Security-Policy header, built once.

django-csp's middleware builds the header from ``settings.CONTENT_SECURITY_POLICY`` on every
response (and the report-only one, empty here): ~0.1 ms each on this machine, for the same
string every time. This one keeps the two strings, built by django-csp's own ``build_policy``
(again when the settings change, as in tests), and sets them as django-csp does; a response
that asked for its own policy (a decorator's config, update or replace, or a nonce taken) is
left to django-csp.
"""

from __future__ import annotations

import functools
from typing import Any

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject
from csp.middleware import CSPMiddleware as DjangoCSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponseBase

_OWN_POLICY = (
    "_csp_config",
    "_csp_update",
    "_csp_replace",
    "_csp_config_ro",
    "_csp_update_ro",
    "_csp_replace_ro",
)
_HEADERS = (
    (HEADER, "_csp_exempt", "CONTENT_SECURITY_POLICY", False),
    (HEADER_REPORT_ONLY, "_csp_exempt_ro", "CONTENT_SECURITY_POLICY_REPORT_ONLY", True),
)


@functools.cache
def _policy(report_only: bool) -> str:
    return build_policy(report_only=report_only)


@receiver(setting_changed)
def _settings_changed(setting: str, **kwargs: Any) -> None:
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        _policy.cache_clear()


class CSPMiddleware(DjangoCSPMiddleware):
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if getattr(request, "_csp_nonce", None) is not None or any(
            hasattr(response, name) for name in _OWN_POLICY
        ):
            return super().process_response(request, response)
        if response.status_code in (404, 500) and settings.DEBUG:
            return response  # Django's debug pages, as django-csp leaves them
        for header, exempt, setting, report_only in _HEADERS:
            policy = _policy(report_only)
            if not policy or header in response or getattr(response, exempt, False) is not False:
                continue
            prefixes = (getattr(settings, setting, None) or {}).get("EXCLUDE_URL_PREFIXES") or ()
            if not request.path_info.startswith(tuple(prefixes)):
                response[header] = policy
        # As django-csp: a nonce asked for after the header is written is an error.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)  # type: ignore[attr-defined]
        return response
