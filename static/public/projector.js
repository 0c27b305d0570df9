/* The projector: shows one panel at a time (the tables, then the standings, page by page),
   each for data-rotate-seconds, and keeps its place when htmx brings fresh panels every few
   seconds. */
(function () {
  "use strict";

  var index = 0;
  var shownAt = 0;

  function panels() {
    return document.querySelectorAll("#poll .panel");
  }

  function show() {
    var all = panels();
    if (!all.length) return;
    index = index % all.length;
    for (var i = 0; i < all.length; i++) {
      all[i].classList.toggle("active", i === index);
    }
  }

  function step() {
    var poll = document.getElementById("poll");
    var seconds = Number(poll && poll.getAttribute("data-rotate-seconds")) || 12;
    if (Date.now() - shownAt >= seconds * 1000) {
      index += 1;
      shownAt = Date.now();
      show();
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.body.classList.add("rotating"); // without this script every panel stays shown
    shownAt = Date.now();
    show();
    window.setInterval(step, 500);
  });
  document.addEventListener("htmx:afterSwap", show);
})();
