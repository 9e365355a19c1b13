"""The pages' static files, cached so that a phone reloading a sheet asks for none of them.

Each page links its files with ``?v=<digest of the content>``: an address that can only ever
name this content, so the answer is cached for a year and marked immutable. A request without
the current digest (an old page, a hand-typed address) still gets the file, revalidated by its
ETag every time, so a changed file is never served stale.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from flask import Blueprint, Response, request, url_for
from werkzeug.security import safe_join

ONE_YEAR = 365 * 24 * 3600


@functools.lru_cache(maxsize=64)
def _digest(path: Path, modified: int, size: int) -> str:
    return hashlib.blake2b(path.read_bytes(), digest_size=8).hexdigest()


def _version(folder: str, filename: str) -> str | None:
    """The digest of a static file's content (read again only when the file changes); None
    for a name that is no file of the folder."""
    joined = safe_join(folder, filename)
    if joined is None:
        return None
    path = Path(joined)
    if not path.is_file():
        return None
    stat = path.stat()
    return _digest(path, stat.st_mtime_ns, stat.st_size)


class PagesBlueprint(Blueprint):
    """A blueprint whose static files are cached for a year when asked for by digest."""

    def get_send_file_max_age(self, filename: str | None) -> int | None:
        if filename is None or self.static_folder is None:
            return None
        current = _version(self.static_folder, filename)
        # None: no max-age, so the browser revalidates with the ETag each time.
        return ONE_YEAR if current is not None and request.args.get("v") == current else None

    def send_static_file(self, filename: str) -> Response:
        response = super().send_static_file(filename)
        if response.cache_control.max_age == ONE_YEAR:
            response.cache_control.immutable = True
        return response

    def asset_url(self, filename: str) -> str:
        """The address of one of the static files, with its content's digest."""
        assert self.static_folder is not None
        version = _version(self.static_folder, filename)
        if version is None:
            raise FileNotFoundError(f"no static file {filename!r} for the pages")
        return url_for(f"{self.name}.static", filename=filename, v=version)
