/* Live pages (the public pages, the projector, a player's own page, the organiser's "still
   playing" list) refresh a part of themselves with htmx (hx-trigger="every …", marked data-live).
   When a refresh fails (offline, a network failure, the server's error), this says so in the
   page's status line ([data-live-status], its sentences given by the server in the reader's
   language), waits longer after each failure before trying again (up to a minute), and says when
   the page is up to date again. No framework. */
(function () {
  "use strict";

  var FIRST_WAIT = 2000;
  var LONGEST_WAIT = 60000;
  var BACK_SHOWN = 8000;
  var failing = {}; // live element's id → {wait, nextTry}
  var clearBack = null;

  function statusLine() { return document.querySelector("[data-live-status]"); }
  function liveElement(evt) {
    var elt = evt.detail && evt.detail.elt;
    return elt && elt.closest ? elt.closest("[data-live]") : null;
  }
  function anyFailing() { return Object.keys(failing).length > 0; }

  function say(which) {
    var line = statusLine();
    if (!line) return;
    if (clearBack) { window.clearTimeout(clearBack); clearBack = null; }
    line.textContent = which ? line.getAttribute("data-" + which) || "" : "";
    line.className = "live-status" + (which ? " " + which : "");
    document.body.classList.toggle("live-stale", which === "offline" || which === "failed");
    if (which === "back") {
      clearBack = window.setTimeout(function () { say(""); }, BACK_SHOWN);
    }
  }

  function failed(elt) {
    var before = failing[elt.id];
    var wait = before ? Math.min(before.wait * 2, LONGEST_WAIT) : FIRST_WAIT;
    failing[elt.id] = { wait: wait, nextTry: Date.now() + wait };
    say(navigator.onLine === false ? "offline" : "failed");
  }

  function answered(elt) {
    if (!failing[elt.id]) return;
    delete failing[elt.id];
    if (!anyFailing()) say("back");
  }

  // A refresh due before the wait is over is skipped: htmx's own timer brings the next one.
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var elt = liveElement(evt);
    var state = elt && failing[elt.id];
    if (state && Date.now() < state.nextTry) evt.preventDefault();
  });
  document.addEventListener("htmx:responseError", function (evt) {
    var elt = liveElement(evt);
    if (elt) failed(elt);
  });
  document.addEventListener("htmx:sendError", function (evt) {
    var elt = liveElement(evt);
    if (elt) failed(elt);
  });
  document.addEventListener("htmx:afterRequest", function (evt) {
    var elt = liveElement(evt);
    if (elt && evt.detail.successful) answered(elt);
  });
  // A part that replaces itself (hx-swap="outerHTML") answers from outside the page: its
  // successor, loaded in its place, says that it did.
  document.addEventListener("htmx:load", function (evt) {
    var elt = evt.detail.elt;
    if (elt && elt.matches && elt.matches("[data-live]")) answered(elt);
  });

  window.addEventListener("offline", function () {
    if (document.querySelector("[data-live]")) say("offline");
  });
  window.addEventListener("online", function () {
    Object.keys(failing).forEach(function (id) { failing[id].nextTry = 0; }); // try at once
    if (!anyFailing() && document.querySelector("[data-live]")) say("back");
  });
})();
