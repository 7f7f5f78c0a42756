// The playground's service worker: after the first visit every file of the site comes from
// this cache, so the page works offline. `pseudo site build` writes the build's stamp below, so
// a new build is a new service worker: the browser installs it and it replaces the old cache.
const PREFIX = "pseudo-site-";
const STAMP = "__STAMP__";

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const site = await (await fetch("./site.json", { cache: "no-store" })).json();
    const cache = await caches.open(PREFIX + STAMP);
    await cache.addAll([...site.files, "./site.json"].map((url) => new Request(url, { cache: "reload" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== PREFIX + STAMP) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  if (event.request.method !== "GET") return;
  event.respondWith((async () => {
    const hit = await caches.match(event.request, { ignoreSearch: true, cacheName: PREFIX + STAMP });
    if (hit) return hit;
    try {
      return await fetch(event.request);
    } catch (e) {
      if (event.request.mode === "navigate") return (await caches.match("./")) || Response.error();
      throw e;
    }
  })());
});
