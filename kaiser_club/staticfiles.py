"""Static files for production: hashed names (cached for ever by browsers) and a gzip copy of
each, served by WhiteNoise.

WhiteNoise also writes a Brotli copy whenever the ``brotli`` module is importable, and it is,
as a dependency of WeasyPrint's fonts. Brotli at its highest quality over the API docs' bundles
made ``collectstatic`` (each image build, each stack test) take a minute on two cores; gzip
alone takes a few seconds, and the proxy in front compresses on the fly anyway."""

from __future__ import annotations

from typing import Any

from whitenoise.compress import Compressor
from whitenoise.storage import CompressedManifestStaticFilesStorage


class GzipManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    def create_compressor(self, **kwargs: Any) -> Compressor:
        return Compressor(use_brotli=False, **kwargs)
