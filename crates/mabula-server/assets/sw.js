// The service worker: what lets Mabula open without a network. The page itself (index.html, the
// same for every route) is asked for first and kept; versioned files (`?v=` their hash, so they
// never change) come from the cache once they are in it; a finished game's state and record are
// kept when they pass by, so its replay opens offline. Everything else goes to the network.
//
// The page tells the worker the files of its version (`{ keep: [urls] }`), so they are kept even
// when they were fetched before the worker was in charge, and files of older versions go.

const CACHE = 'mabula-1';
const SHELL = '/';

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.add(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

self.addEventListener('message', (event) => {
  const urls = event.data && Array.isArray(event.data.keep) ? event.data.keep : [];
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // Versions the page no longer names are dropped: each deployment replaces the last.
    const keep = new Set(urls.map((u) => new URL(u, self.location.origin).href));
    for (const req of urls.length ? await cache.keys() : []) {
      if (new URL(req.url).searchParams.has('v') && !keep.has(req.url)) await cache.delete(req);
    }
    for (const url of urls) {
      const u = new URL(url, self.location.origin);
      if (u.origin !== self.location.origin || !u.searchParams.has('v')) continue;
      if (await cache.match(u.href)) continue;
      try {
        const res = await fetch(u.href);
        if (res.ok) await cache.put(u.href, res);
      } catch { /* offline: kept next time */ }
    }
  })());
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.mode === 'navigate') {
    // Pages are index.html whatever their route; the API's documents and downloads are not.
    if (url.pathname.startsWith('/api/') || /\.[a-z0-9]+$/i.test(url.pathname)) return;
    event.respondWith(networkFirst(req, SHELL));
  } else if (url.searchParams.has('v')) {
    event.respondWith(cacheFirst(req));
  } else if (/^\/api\/games\/[a-z0-9]+(\/record)?$/.test(url.pathname)) {
    event.respondWith(finishedGame(req));
  } else if (!url.pathname.startsWith('/api/')) {
    event.respondWith(networkFirst(req, url.pathname));
  }
});

/** The network's answer (kept under `key`), or the kept one when the network fails. */
async function networkFirst(req, key) {
  const cache = await caches.open(CACHE);
  try {
    const res = await fetch(req);
    // Only a page is kept as the page (a 200 of another kind never replaces it).
    const page = key !== SHELL || (res.headers.get('content-type') || '').startsWith('text/html');
    if (res.ok && page) await cache.put(key, res.clone());
    return res;
  } catch (err) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw err;
  }
}

async function cacheFirst(req) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(req.url);
  if (kept) return kept;
  const res = await fetch(req);
  if (res.ok) await cache.put(req.url, res.clone());
  return res;
}

/** A game's state or record: from the network, kept when the game is over (it changes no more). */
async function finishedGame(req) {
  const cache = await caches.open(CACHE);
  // Seat tokens make no difference to a finished game's public state: keep it by address only.
  const key = new URL(req.url).pathname;
  try {
    const res = await fetch(req);
    if (res.ok) {
      const copy = res.clone();
      const finished = key.endsWith('/record')
        ? !/\[Result "\*"\]/.test(await copy.clone().text())
        : (await copy.clone().json()).status === 'finished';
      if (finished) await cache.put(key, copy);
    }
    return res;
  } catch (err) {
    const kept = await cache.match(key);
    if (kept) return kept;
    throw err;
  }
}
