// The playground's service worker: after the first visit every file of the site comes from
// this cache, so the page works offline. A new build (another stamp in site.json) replaces it.
const PREFIX = "pseudo-site-";

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const site = await (await fetch("./site.json", { cache: "no-store" })).json();
    const cache = await caches.open(PREFIX + site.stamp);
    await cache.addAll([...site.files, "./site.json"]);
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const ours = (await caches.keys()).filter((name) => name.startsWith(PREFIX));
    for (const old of ours.slice(0, -1)) await caches.delete(old);  // keys come oldest first
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  if (event.request.method !== "GET") return;
  event.respondWith((async () => {
    const hit = await caches.match(event.request, { ignoreSearch: true });
    if (hit) return hit;
    try {
      return await fetch(event.request);
    } catch (e) {
      if (event.request.mode === "navigate") return (await caches.match("./")) || Response.error();
      throw e;
    }
  })());
});
