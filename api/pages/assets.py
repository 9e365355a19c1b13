"""The pages' static files, cached so that a phone reloading a sheet asks for none of them, and
sent compressed, so that a phone on a slow network at the table waits for as few bytes as can be.

Each page links its files with ``?v=<digest of the content>``: an address that can only ever
name this content, so the answer is cached for a year and marked immutable. A request without
the current digest (an old page, a hand-typed address) still gets the file, revalidated by its
ETag every time, so a changed file is never served stale.

A script module imports its neighbours (``from "./common.js"``); as served, each such import
names the neighbour's versioned address, so the modules a page loads are all cached for a year
too, and a module's digest changes whenever anything it imports changes. The page lists every
module of its script's graph up front (``<link rel="modulepreload">``, :meth:`Assets.graph`),
so a cold load on a slow network fetches them in one go instead of one import after another.

Every text file is compressed once, when first asked for, and kept: gzip for every browser,
Brotli (smaller still) for those that accept it — browsers ask for it over HTTPS only.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import mimetypes
import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from stat import S_ISREG

import brotli
from flask import Blueprint, Request, Response, request, url_for
from werkzeug.exceptions import NotFound
from werkzeug.http import parse_accept_header

ONE_YEAR = 365 * 24 * 3600
#: How long the static folder is taken to be as it was last looked at.
LOOK_AGAIN_SECONDS = 1.0

#: The encodings a text is sent in, best first, with how each is made: at its best level for
#: what is kept (a static file, a page the same for every request), since that is done once;
#: quickly for what is made for one request only (a house ruleset's rules).
ENCODINGS: dict[str, tuple[Callable[[bytes], bytes], Callable[[bytes], bytes]]] = {
    "br": (
        lambda body: bytes(brotli.compress(body, quality=11)),
        lambda body: bytes(brotli.compress(body, quality=5)),
    ),
    "gzip": (
        lambda body: gzip.compress(body, compresslevel=9, mtime=0),
        lambda body: gzip.compress(body, compresslevel=6, mtime=0),
    ),
}
#: What is worth compressing: text. A PNG is compressed already.
TEXT_TYPES = ("text/", "application/json", "application/manifest+json")
TEXT_TYPES_EXACT = ("image/svg+xml",)
#: A module's relative imports, as the pages' scripts write them (no build step rewrites them
#: on disk: they are rewritten as served): static ones, and ``import("./x.js")``, a module
#: fetched only when it is wanted (versioned too, but not part of the page's preloads).
IMPORT = re.compile(rb'(\bfrom\s*|\bimport\s*\(?\s*)"\./([\w.-]+\.js)"')

mimetypes.add_type("application/manifest+json", ".webmanifest")


def is_text(mimetype: str) -> bool:
    return mimetype.startswith(TEXT_TYPES) or mimetype in TEXT_TYPES_EXACT


def accepted_encoding(req: Request) -> str | None:
    """The best encoding of :data:`ENCODINGS` the request accepts (``q`` above 0), if any."""
    return _best_encoding(req.environ.get("HTTP_ACCEPT_ENCODING", ""))


@functools.lru_cache(maxsize=256)
def _best_encoding(header: str) -> str | None:
    # Browsers send one of a handful of headers: each is parsed once.
    accepted = parse_accept_header(header)
    for name in ENCODINGS:
        if accepted[name] > 0:
            return name
    return None


@dataclass
class Encoded:
    """A body and its compressed forms, each made when first asked for and then kept."""

    body: bytes
    mimetype: str
    #: The ETag of the body as it is; a compressed form's adds its encoding's name.
    etag: str
    #: Made for one answer only: compressed quickly rather than as small as can be.
    once: bool = False
    _forms: dict[str, bytes] = field(default_factory=dict, repr=False)

    def form(self, encoding: str | None) -> tuple[bytes, str | None]:
        """The body in ``encoding`` (or as it is, when compressing would not make it smaller),
        and the encoding it is in."""
        if encoding is None or not is_text(self.mimetype):
            return self.body, None
        found = self._forms.get(encoding)
        if found is None:
            # Two threads may both make it the first time; either result is the same.
            best, quick = ENCODINGS[encoding]
            found = self._forms[encoding] = (quick if self.once else best)(self.body)
        if len(found) >= len(self.body):
            return self.body, None
        return found, encoding

    def etags(self) -> set[str]:
        return {self.etag, *(f"{self.etag}-{name}" for name in ENCODINGS)}

    def answer(self, headers: dict[str, str] | None = None, *, status: int = 200) -> Response:
        """This body as the request accepts it: compressed when it may be, a 304 when the
        browser has it already (any form of it: they hold the same content)."""
        headers = dict(headers or {})
        if is_text(self.mimetype):
            # Said as a string: werkzeug's Vary set costs more than this whole answer.
            headers["Vary"] = "Accept-Encoding"
        asked = status == 200 and "HTTP_IF_NONE_MATCH" in request.environ
        if asked and any(map(request.if_none_match.contains, self.etags())):
            response = Response(status=304, headers={**headers, "ETag": f'"{self.etag}"'})
        else:
            body, encoding = self.form(accepted_encoding(request))
            etag = self.etag if encoding is None else f"{self.etag}-{encoding}"
            if status == 200:
                headers["ETag"] = f'"{etag}"'
            if encoding is not None:
                headers["Content-Encoding"] = encoding
            response = Response(body, status=status, headers=headers, mimetype=self.mimetype)
        return response


def encoded(body: bytes, mimetype: str, *, once: bool = False) -> Encoded:
    """``body`` ready to be sent, named by a digest of its content."""
    return Encoded(body, mimetype, hashlib.blake2b(body, digest_size=12).hexdigest(), once)


@dataclass
class Asset:
    """One static file as it is served: its body (a module's imports made versioned), the
    digest that versions it, and the modules it imports."""

    name: str
    content: Encoded
    imports: tuple[str, ...]

    @property
    def digest(self) -> str:
        return self.content.etag[:16]


class Assets:
    """Every file of a static folder, as served; read again when any file of it changes."""

    def __init__(self, folder: Path, *, look_again: float = LOOK_AGAIN_SECONDS) -> None:
        self.folder = folder
        self.look_again = look_again
        self._seen: tuple[tuple[str, int, int], ...] = ()
        self._files: dict[str, Asset] = {}
        self._looked: float | None = None

    def _look(self) -> dict[str, Asset]:
        # The folder is looked at again at most once a second: a page, the worker and the
        # manifest each ask for many files' addresses at once.
        now = time.monotonic()
        if self._looked is not None and now - self._looked < self.look_again:
            return self._files
        listing = []
        for path in self.folder.iterdir():
            stat = path.stat()
            if S_ISREG(stat.st_mode):
                listing.append((path.name, stat.st_mtime_ns, stat.st_size))
        seen = tuple(sorted(listing))
        if seen != self._seen:
            self._files = self._read({name for name, _, _ in seen})
            self._seen = seen
        self._looked = now
        return self._files

    def _read(self, names: set[str]) -> dict[str, Asset]:
        files: dict[str, Asset] = {}

        def read(name: str, within: tuple[str, ...] = ()) -> Asset:
            if name in files:
                return files[name]
            if name in within:
                raise ValueError(f"the pages' modules import each other in a circle: {within}")
            raw = (self.folder / name).read_bytes()
            mimetype = mimetypes.guess_type(name)[0] or "application/octet-stream"
            if mimetype == "application/javascript":
                mimetype = "text/javascript"  # RFC 9239's name, whatever the platform says
            imports: list[str] = []

            def versioned(match: re.Match[bytes]) -> bytes:
                imported = match[2].decode()
                if imported not in names:
                    raise FileNotFoundError(f"{name} imports {imported}, which is not there")
                if b"(" not in match[1]:
                    imports.append(imported)  # a static import: part of the page's graph
                digest = read(imported, (*within, name)).digest
                return match[1] + f'"./{imported}?v={digest}"'.encode()

            body = IMPORT.sub(versioned, raw) if name.endswith(".js") else raw
            if mimetype.startswith("text/") and "charset" not in mimetype:
                mimetype += "; charset=utf-8"
            files[name] = Asset(name, encoded(body, mimetype), tuple(imports))
            return files[name]

        for name in sorted(names):
            read(name)
        return files

    def get(self, name: str) -> Asset | None:
        return self._look().get(name)

    def all(self) -> list[Asset]:
        return list(self._look().values())

    def graph(self, entries: Iterable[str]) -> list[str]:
        """Every module the entry modules import, directly or not, in the order found."""
        files = self._look()
        found: list[str] = []
        waiting = [name for entry in entries if entry in files for name in files[entry].imports]
        while waiting:
            name = waiting.pop(0)
            if name not in found:
                found.append(name)
                waiting += files[name].imports
        return found


class PagesBlueprint(Blueprint):
    """A blueprint whose static files are served as :class:`Assets` say: versioned,
    compressed, and cached for a year when asked for by digest."""

    @property
    def assets(self) -> Assets:
        found: Assets | None = getattr(self, "_assets", None)
        if found is None:
            assert self.static_folder is not None
            found = self._assets = Assets(Path(self.static_folder))
        return found

    def send_static_file(self, filename: str) -> Response:
        asset = self.assets.get(filename)
        if asset is None:
            raise NotFound()
        if request.args.get("v") == asset.digest:
            cache = f"public, max-age={ONE_YEAR}, immutable"
        else:
            cache = "no-cache"  # an old or hand-typed address: revalidated by its ETag
        return asset.content.answer({"Cache-Control": cache})

    def asset_url(self, filename: str) -> str:
        """The address of one of the static files, with its content's digest."""
        asset = self.assets.get(filename)
        if asset is None:
            raise FileNotFoundError(f"no static file {filename!r} for the pages")
        return url_for(f"{self.name}.static", filename=filename, v=asset.digest)

    def module_preloads(self, markup: str) -> list[str]:
        """The versioned address of every module imported by the module scripts ``markup``
        loads (a page's scripts block): what the page lists for the browser to fetch at once."""
        prefix = re.escape(url_for(f"{self.name}.static", filename=""))
        entries = re.findall(prefix + r"([\w.-]+\.js)\?v=", markup)
        return [self.asset_url(name) for name in self.assets.graph(entries)]
