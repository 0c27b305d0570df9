/* Public pages: the round clock counts down to the server's deadline. The page measures how far
   this device's clock is from the server's from the Date (and, through a cache, Age) of each
   refreshed part: a page a shared cache may give to any reader carries no time of its own. Every
   second it shows the time left on each [data-clock] element. The deadline itself comes from the
   server in each refreshed part (htmx), so a paused or extended round is shown as the server
   says. No framework. */
(function () {
  "use strict";

  var offset = 0; // server time minus this device's time, in ms
  var sentAt = 0;

  /* Date counts whole seconds: the server's time was within the second after it, so a
     device within a second of it is taken as right, and one further off is corrected. */
  function measure(xhr) {
    var date = Date.parse(xhr.getResponseHeader("Date") || "");
    if (isNaN(date) || !sentAt) return;
    var age = Number(xhr.getResponseHeader("Age")) || 0;
    var measured = date + age * 1000 + 500 - (sentAt + Date.now()) / 2;
    offset = Math.abs(measured) < 1000 ? 0 : measured;
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

  document.addEventListener("htmx:beforeRequest", function () {
    sentAt = Date.now();
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail && event.detail.xhr) measure(event.detail.xhr);
  });
  document.addEventListener("DOMContentLoaded", function () {
    tick();
    window.setInterval(tick, 1000);
  });
  document.addEventListener("htmx:afterSwap", tick);
})();
