/* Kaiser Club: the table pages' service worker (scope /table/). It keeps each table page and
   its files so that the page reloads with no connection; the hands themselves wait in the
   page's outbox (localStorage) and are sent by the page, never by this worker. Pages go to the
   network first (the server is the truth) and fall back to the last copy; the files, named by
   their content, come from the cache. */
"use strict";
var VERSION = "{{ version|escapejs }}";
var ASSETS = [{% for asset in assets %}"{{ asset|escapejs }}"{% if not forloop.last %}, {% endif %}{% endfor %}];
var ASSET_CACHE = "kaiser-table-assets-" + VERSION;
var PAGE_CACHE = "kaiser-table-pages";
var PAGE = /^\/table\/\d+\/$/;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(ASSET_CACHE)
      .then(function (cache) { return cache.addAll(ASSETS); })
      .then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (key) {
        return key.indexOf("kaiser-table-assets-") === 0 && key !== ASSET_CACHE;
      }).map(function (key) { return caches.delete(key); }));
    }).then(function () { return self.clients.claim(); })
  );
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (PAGE.test(url.pathname)) {
    event.respondWith(
      fetch(request).then(function (response) {
        if (response.ok && !response.redirected) {
          var copy = response.clone();
          caches.open(PAGE_CACHE).then(function (cache) { return cache.put(url.pathname, copy); });
        }
        return response;
      }).catch(function () {
        return caches.open(PAGE_CACHE)
          .then(function (cache) { return cache.match(url.pathname); })
          .then(function (kept) { return kept || Response.error(); });
      })
    );
    return;
  }
  if (ASSETS.indexOf(url.pathname) !== -1) {
    event.respondWith(
      caches.match(request).then(function (kept) { return kept || fetch(request); })
    );
  }
});
