/* The game clock on the table page. The server's deadline is the truth: the page measures how
   far its own clock is from the server's (the offset, from the answer with the shortest round
   trip, as NTP does) and counts down to the deadline in server time. Warnings at 10 and 5
   minutes and in the last one; at zero, "Time: finish this hand". No framework, no dependency. */
(function () {
  "use strict";

  var clock = {
    offset: 0, // server time minus this device's time, in ms
    bestRtt: Infinity,

    /* One measurement: the server said serverNow; the request left at sentAt and the answer
       came at receivedAt (this device's ms). */
    sample: function (serverNow, sentAt, receivedAt) {
      if (typeof serverNow !== "number") return;
      var rtt = receivedAt - sentAt;
      // A sample taken long ago may be stale (the device's clock can be reset): let a fresh
      // one win after a while even if its round trip was longer.
      if (rtt <= clock.bestRtt || Date.now() - (clock.sampledAt || 0) > 10 * 60 * 1000) {
        clock.bestRtt = rtt;
        clock.offset = serverNow - (sentAt + receivedAt) / 2;
        clock.sampledAt = receivedAt;
      }
    },

    now: function () {
      return Date.now() + clock.offset;
    },

    /* What the clock shows for a game state: {hidden, time, note, level}. */
    view: function (game, text) {
      if (!game || !game.deadline || game.status !== "in_progress") return { hidden: true };
      if (game.paused) return { time: "", note: text.clock_paused, level: "" };
      var left = game.deadline - clock.now();
      if (game.time_called || left <= 0) return { time: text.clock_zero, note: "", level: "zero" };
      var seconds = Math.ceil(left / 1000);
      var minutes = Math.floor(seconds / 60);
      var shown = minutes + ":" + String(seconds % 60).padStart(2, "0");
      if (minutes >= 60) {
        shown = Math.floor(minutes / 60) + ":" + String(minutes % 60).padStart(2, "0") + ":" +
          String(seconds % 60).padStart(2, "0");
      }
      // Minutes taken away can bring the deadline within a minute at once: say so, not "5".
      if (left <= 60 * 1000) return { time: shown, note: text.clock_one, level: "warn-5 warn-1" };
      if (left <= 5 * 60 * 1000) return { time: shown, note: text.clock_five, level: "warn-5" };
      if (left <= 10 * 60 * 1000) return { time: shown, note: text.clock_ten, level: "warn-10" };
      return { time: shown, note: "", level: "" };
    },

    render: function (element, game, text) {
      var v = clock.view(game, text);
      if (v.hidden) { element.hidden = true; return v; }
      element.hidden = false;
      element.className = "clock" + (v.level ? " " + v.level : "");
      element.querySelector(".time").textContent = v.time;
      element.querySelector(".note").textContent = v.note;
      return v;
    }
  };

  window.KaiserClock = clock;
})();
