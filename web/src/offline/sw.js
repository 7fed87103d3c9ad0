// The service worker: after the first visit the lab works offline. The build (precache.ts)
// puts `self.__ORBITCP_PRECACHE = { version, files }` in front of this file: every file the
// built site has, relative to this script, so it works under any base path. A new deploy has a
// new version, so the browser (which checks this script on every navigation) installs it and
// the old cache is dropped once it takes over.
//
// Requests: same origin only, GET only. A precached file comes from the cache (it cannot change
// within a version); a page navigation gets the cached index.html; anything else goes to the
// network and its answer is kept, so it is there offline next time.

const MANIFEST = self.__ORBITCP_PRECACHE ?? { version: 'dev', files: [] };
const PREFIX = 'orbitcp-';
const CACHE = `${PREFIX}${MANIFEST.version}`;
const scope = new URL('./', self.location.href);
const INDEX = new URL('./index.html', scope).href;
const PRECACHED = new Set(MANIFEST.files.map((f) => new URL(f, scope).href));

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // 'reload' skips the HTTP cache: the files must be this deploy's.
      await cache.addAll([...PRECACHED].map((url) => new Request(url, { cache: 'reload' })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key.startsWith(PREFIX) && key !== CACHE) await caches.delete(key);
      await self.clients.claim();
    })(),
  );
});

/** The cached answer, else the network's (kept for next time when it is a good one). */
async function cacheFirst(request, key) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(key, { ignoreSearch: true });
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') await cache.put(key, response.clone());
  return response;
}

/** The network's answer, kept; the cache's when offline. */
async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && response.type === 'basic') await cache.put(request, response.clone());
    return response;
  } catch (e) {
    const hit = await cache.match(request);
    if (hit) return hit;
    throw e;
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== scope.origin || !url.href.startsWith(scope.href)) return;
  if (request.mode === 'navigate') {
    // Any page of the site is the one page, whatever its query (?debug=1) or fragment.
    event.respondWith(cacheFirst(request, INDEX));
    return;
  }
  url.search = '';
  url.hash = '';
  event.respondWith(PRECACHED.has(url.href) ? cacheFirst(request, url.href) : networkFirst(request));
});
