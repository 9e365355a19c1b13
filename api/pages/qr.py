"""QR codes of a sheet's share links, drawn by the server with segno.

The view link is public (it is the sheet's address), so its code is an image the page loads by
URL. The edit link holds the edit token, which must reach no server log and no URL: the page
sends it in a request body and gets the code back as SVG to draw.
"""

from __future__ import annotations

import io
import re
from urllib.parse import urlsplit

import segno

#: A sheet's id as the storage makes them (URL-safe base64); anything else names no sheet.
SHEET_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
#: Longer than any share link of this server: an origin, /m/, an id and #edit= with a token.
MOST_LINK_CHARACTERS = 512


def svg(text: str) -> bytes:
    """``text`` as a QR code in SVG, sized by its view box so that CSS chooses its size.

    Medium error correction survives a phone screen's glare and a crease in a printed sheet.
    """
    code = segno.make(text, error="m", micro=False)
    out = io.BytesIO()
    code.save(out, kind="svg", xmldecl=False, svgns=True, omitsize=True, border=2, dark="#000")
    return out.getvalue()


def is_share_link(text: str) -> bool:
    """Whether ``text`` is a link to a sheet page, the only thing the QR endpoint draws (it is
    no general QR service)."""
    if len(text) > MOST_LINK_CHARACTERS:
        return False
    try:
        parts = urlsplit(text)
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query:
        return False
    prefix, _, sheet_id = parts.path.rpartition("/")
    return prefix.endswith("/m") and SHEET_ID.match(sheet_id) is not None
