// The pages' service worker: a phone that opened a page once opens it again with no network.
// Rendered by the server (api/pages/__init__.py, service_worker) with every static file's
// versioned address, so any changed file makes a new worker: the browser installs it, it takes
// over at once, and the caches of the old one are deleted.
//
// What it keeps, and how:
// * static files by digest (/assets/<file>?v=<digest>): cache first. Such an address only ever
//   names one content, so a kept copy is never stale. All of them are fetched on install.
// * the pages (/, /m/<id>, /check, /hand, /rulesets/...): network first, the kept copy when the
//   network fails or is too slow. Each page is the same HTML whatever its query (its script
//   reads the address), except a house ruleset's rules (?options=), so the query is not part of
//   what is kept; a sheet's page is the same HTML for every sheet, so one copy serves them all.
// * nothing else: the API's answers (/v1/) are a sheet's, private and changing every round (the
//   sheet page keeps its own last copy), nor anything sent with an Authorization header.

const VERSION = {{ version|tojson }};
const ROOT = {{ root|tojson }};
const FILES = {{ files|tojson }};
const STATIC_CACHE = `static-${VERSION}`;
// Pages name static files by digest, so they are kept with the files they name.
const PAGE_CACHE = `pages-${VERSION}`;
// A phone with a poor signal waits this long for a page before it is shown the kept copy.
const PATIENCE_MS = 4000;

const PAGES = [/^\/$/, /^\/m\/[A-Za-z0-9_-]+$/, /^\/check$/, /^\/hand$/, /^\/rulesets\/[\w-]+(\/sheet)?$/];
const SHEET = /^\/m\/[A-Za-z0-9_-]+$/;

/** The path of a URL of this origin below the mount point, or null for anything else. */
function localPath(url) {
  if (url.origin !== self.location.origin || !url.pathname.startsWith(ROOT + "/")) return null;
  return url.pathname.slice(ROOT.length);
}

/** The address a page is kept under: its path, with a house ruleset's options. */
function pageKey(url) {
  const key = new URL(url.pathname, url);
  if (url.searchParams.has("options")) key.searchParams.set("options", url.searchParams.get("options"));
  return key.href;
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const files = await caches.open(STATIC_CACHE);
      await files.addAll(FILES);
      // The pages an older worker kept (and those open now, opened before any worker ran) are
      // fetched again, so the kept copies name the files just fetched.
      const pages = await caches.open(PAGE_CACHE);
      const wanted = new Set();
      for (const name of await caches.keys()) {
        if (name.startsWith("pages-") && name !== PAGE_CACHE) {
          for (const request of await (await caches.open(name)).keys()) wanted.add(request.url);
        }
      }
      for (const client of await self.clients.matchAll({ type: "window", includeUncontrolled: true })) {
        wanted.add(client.url);
      }
      await Promise.all(
        [...wanted].map((url) => keepPage(pages, new URL(url)).catch(() => undefined)),
      );
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name !== STATIC_CACHE && name !== PAGE_CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

/** Fetch a page and keep it (a page of this origin only; only a page answered 200). */
async function keepPage(pages, url, request = url.href) {
  const path = localPath(url);
  if (path === null || !PAGES.some((page) => page.test(path))) return undefined;
  const answer = await fetch(request);
  if (answer.ok && answer.type === "basic") {
    if (SHEET.test(path)) {
      // One sheet page is kept: every sheet's page is the same HTML.
      for (const kept of await pages.keys()) {
        const keptPath = localPath(new URL(kept.url));
        if (keptPath !== null && SHEET.test(keptPath)) await pages.delete(kept);
      }
    }
    // Kept without its Link header: a sheet page's names its own sheet's data to preload,
    // and the kept copy serves every sheet.
    const headers = new Headers(answer.headers);
    headers.delete("Link");
    const body = await answer.clone().arrayBuffer();
    await pages.put(pageKey(url), new Response(body, { status: answer.status, headers }));
  }
  return answer;
}

/** The kept copy of a page: for a sheet, the one sheet page kept, whichever sheet it was. */
async function keptPage(url) {
  const pages = await caches.open(PAGE_CACHE);
  const path = localPath(url);
  if (SHEET.test(path)) {
    for (const kept of await pages.keys()) {
      const keptPath = localPath(new URL(kept.url));
      if (keptPath !== null && SHEET.test(keptPath)) return pages.match(kept, { ignoreVary: true });
    }
    return undefined;
  }
  return pages.match(pageKey(url), { ignoreVary: true });
}

async function networkFirst(request, url) {
  const pages = await caches.open(PAGE_CACHE);
  const fromNetwork = keepPage(pages, url, request);
  fromNetwork.catch(() => undefined); // a failure is answered below, whichever comes first
  let waited;
  const slow = new Promise((resolve) => {
    waited = setTimeout(resolve, PATIENCE_MS);
  });
  try {
    const first = await Promise.race([fromNetwork, slow]);
    if (first) return first;
    // Too slow: the kept copy now, if there is one (the network's answer is still kept).
    return (await keptPage(url)) || (await fromNetwork);
  } catch (error) {
    const kept = await keptPage(url);
    if (kept) return kept;
    throw error;
  } finally {
    clearTimeout(waited);
  }
}

async function cacheFirst(request) {
  const files = await caches.open(STATIC_CACHE);
  const kept = await files.match(request, { ignoreVary: true });
  if (kept) return kept;
  const answer = await fetch(request);
  if (answer.ok) await files.put(request, answer.clone());
  return answer;
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" || request.headers.has("Authorization")) return;
  const url = new URL(request.url);
  const path = localPath(url);
  if (path === null || path.startsWith("/v1/")) return;
  if (path.startsWith("/assets/") && url.searchParams.has("v")) {
    event.respondWith(cacheFirst(request));
  } else if (request.mode === "navigate" && PAGES.some((page) => page.test(path))) {
    const answer = networkFirst(request, url);
    event.respondWith(answer);
    event.waitUntil(answer.catch(() => undefined));
  }
});
