// Registers the service worker (sw.js, written by the build: precache.ts) so that the lab works
// offline after the first visit. Only in a production build (the dev server has no sw.js, and
// a cache would hide edits) and only over http(s): a file:// page cannot have one.

export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator) || !/^https?:$/.test(window.location.protocol)) return;
  // Relative: the site may be served from any path, and the worker's scope is its folder.
  navigator.serviceWorker.register('./sw.js').catch((e: unknown) => {
    // Offline use is a convenience: the page works without it.
    console.warn('orbitcp: the service worker could not be registered:', e);
  });
}
