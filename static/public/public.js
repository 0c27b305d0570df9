/* Public pages: the round clock counts down to the server's deadline. The page measures how far
   this device's clock is from the server's once, when it loads (data-server-now), and every
   second shows the time left on each [data-clock] element. The deadline itself comes from the
   server in each refreshed part (htmx), so a paused or extended round is shown as the server
   says. No framework. */
(function () {
  "use strict";

  var offset = 0; // server time minus this device's time, in ms

  function measure() {
    var el = document.getElementById("server-now");
    var serverNow = el ? Number(el.getAttribute("data-server-now")) : NaN;
    if (!isNaN(serverNow)) offset = serverNow - Date.now();
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

  document.addEventListener("DOMContentLoaded", function () {
    measure();
    tick();
    window.setInterval(tick, 1000);
  });
  document.addEventListener("htmx:afterSwap", tick);
})();
