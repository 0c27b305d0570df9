/* Public pages: the round clock counts down to the server's deadline. The page measures how far
   this device's clock is from the server's from the Date (and, through a cache, Age) of each
   refreshed part: a page a shared cache may give to any reader carries no time of its own, so
   until the first refresh (3 s) the device's own clock counts. Every second it shows the time
   left on each [data-clock] element. The deadline itself comes from the
   server in each refreshed part (htmx), so a paused or extended round is shown as the server
   says. No framework. */
(function () {
  "use strict";

  var offset = 0; // server time minus this device's time, in ms
  var low = -Infinity; // what the answers so far allow the offset to be: at least this
  var high = Infinity; // and at most this

  /* One answer: the server stamped it Date (whole seconds; Age later, through a cache) at a
     moment between this request's sending and its answer's arrival, so the offset lies
     within [date - receivedAt, date + 1000 - sentAt]. Each answer narrows what the ones
     before allowed; an answer outside it means this device's clock was changed: start again. */
  function measure(xhr, sentAt) {
    var date = Date.parse(xhr.getResponseHeader("Date") || "");
    if (isNaN(date) || !sentAt) return;
    var server = date + (Number(xhr.getResponseHeader("Age")) || 0) * 1000;
    var least = server - Date.now();
    var most = server + 1000 - sentAt;
    if (least > high || most < low) {
      low = least;
      high = most;
    } else {
      low = Math.max(low, least);
      high = Math.min(high, most);
    }
    offset = (low + high) / 2;
  }

  function pad(n) {
    return String(n).padStart(2, "0");
  }

  function shown(ms) {
    var seconds = Math.max(0, Math.ceil(ms / 1000));
    var minutes = Math.floor(seconds / 60);
    if (minutes >= 60) {
      return Math.floor(minutes / 60) + ":" + pad(minutes % 60) + ":" + pad(seconds % 60);
    }
    return minutes + ":" + pad(seconds % 60);
  }

  function tick() {
    var clocks = document.querySelectorAll("[data-clock]");
    for (var i = 0; i < clocks.length; i++) {
      var el = clocks[i];
      var time = el.querySelector(".time");
      if (!time) continue;
      var state = el.getAttribute("data-state");
      el.classList.remove("warn-10", "warn-5", "zero");
      if (state === "running") {
        var left = Number(el.getAttribute("data-deadline")) - (Date.now() + offset);
        if (left <= 0) {
          time.textContent = el.getAttribute("data-zero-text");
          el.classList.add("zero");
        } else {
          time.textContent = shown(left);
          if (left <= 5 * 60 * 1000) el.classList.add("warn-5");
          else if (left <= 10 * 60 * 1000) el.classList.add("warn-10");
        }
      } else if (state === "paused") {
        time.textContent = shown(Number(el.getAttribute("data-remaining")) * 1000);
      }
    }
  }

  document.addEventListener("htmx:beforeSend", function (event) {
    if (event.detail && event.detail.xhr) event.detail.xhr.kaiserSentAt = Date.now();
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail && event.detail.xhr;
    if (xhr) measure(xhr, xhr.kaiserSentAt);
  });
  document.addEventListener("DOMContentLoaded", function () {
    tick();
    window.setInterval(tick, 1000);
  });
  document.addEventListener("htmx:afterSwap", tick);
})();
