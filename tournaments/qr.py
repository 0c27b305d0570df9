"""QR codes as SVG (segno), for a table's link."""

from __future__ import annotations

import io

import segno


def qr_svg(url: str, *, scale: int = 4) -> str:
    """An SVG document whose QR code opens ``url``."""
    buffer = io.BytesIO()
    segno.make(url, error="m").save(buffer, kind="svg", scale=scale, xmldecl=False, border=2)
    return buffer.getvalue().decode()
