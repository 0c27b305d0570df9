/* A box that scrolls (a table wider than a phone, a long score sheet, a projector's panel) can
   be scrolled from the keyboard: it takes the focus (tabindex="0") while it has more to show
   than it can, and gives it back when it fits again. Its edge cue is CSS (site.css). */
(function () {
  "use strict";

  var BOXES = "table, .scroll-x, .history, .bracket-wrap, .panel";

  function scrolls(el) {
    var style = window.getComputedStyle(el);
    var across = /auto|scroll/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1;
    var down = /auto|scroll/.test(style.overflowY) && el.scrollHeight > el.clientHeight + 1;
    return across || down;
  }

  function mark() {
    var boxes = document.querySelectorAll(BOXES);
    for (var i = 0; i < boxes.length; i++) {
      var el = boxes[i];
      if (scrolls(el)) {
        if (!el.hasAttribute("tabindex")) { el.setAttribute("tabindex", "0"); el.setAttribute("data-scroll-focus", ""); }
      } else if (el.hasAttribute("data-scroll-focus")) {
        el.removeAttribute("tabindex");
        el.removeAttribute("data-scroll-focus");
      }
    }
  }

  var pending = null;
  function soon() {
    if (pending) return;
    pending = window.requestAnimationFrame(function () { pending = null; mark(); });
  }

  document.addEventListener("DOMContentLoaded", mark);
  document.addEventListener("htmx:afterSettle", soon);
  window.addEventListener("resize", soon);
})();
