/* The service worker of Ishtar Online (served at /sw.js: app/web/routes/app_shell.py puts
 * VERSION and SHELL above this text). A classic script, not a module.
 *
 * - Install: keep the shell (the home page, its scripts, styles, images and catalogues) in a
 *   cache named for this deploy, so "your games" opens with no network; older caches go
 *   when this worker takes over.
 * - Fetch: versioned static files and catalogues from the cache first (they never change
 *   under their URL); pages from the network first, the kept home page when offline.
 * - Push: show the notification the server sent (app/background/web_push.py: a title, a
 *   sentence, the room's link); a click focuses the room's tab or opens it.
 */

/* global VERSION, SHELL */

const CACHE = `ishtar-shell-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("ishtar-shell-") && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

function kept(request) {
  const url = new URL(request.url);
  return url.origin === self.location.origin && (url.pathname.startsWith("/static/") || url.pathname.startsWith("/i18n/"));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  if (request.mode === "navigate") {
    event.respondWith(
      fetch(request).then((answer) => {
        if (answer.ok && new URL(request.url).pathname === "/") {
          const copy = answer.clone();
          caches.open(CACHE).then((cache) => cache.put("/", copy));
        }
        return answer;
      }).catch(async () => (await caches.match(request, { ignoreSearch: true })) || (await caches.match("/")) || Response.error()),
    );
    return;
  }
  if (kept(request)) {
    event.respondWith(
      caches.match(request).then((found) => found || fetch(request).then((answer) => {
        if (answer.ok && /^\/static\/[0-9a-f]{12}\//.test(new URL(request.url).pathname)) {
          const copy = answer.clone();
          caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return answer;
      })),
    );
  }
});

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const title = data.title || "Ishtar Online";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: data.body || "",
      tag: data.tag || "ishtar",
      renotify: true,
      icon: "/static/img/app/icon-192.png",
      badge: "/static/img/app/icon-192.png",
      data: { url: data.url || "/" },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url || "/", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((open) => {
      const tab = open.find((client) => client.url === target);
      return tab ? tab.focus() : self.clients.openWindow(target);
    }),
  );
});
