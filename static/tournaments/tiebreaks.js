// The tie-break order: the numbered list works as it is (type each metric's place); this adds
// a "move up" and a "move down" button to each row and renumbers the places that are in use.
(function () {
  "use strict";
  function renumber(list) {
    var n = 1;
    list.querySelectorAll("li").forEach(function (row) {
      var input = row.querySelector("input.place");
      if (input.value !== "") { input.value = String(n); n += 1; }
    });
  }
  function move(row, up) {
    var list = row.parentNode;
    var other = up ? row.previousElementSibling : row.nextElementSibling;
    if (!other) { return; }
    var input = row.querySelector("input.place");
    if (input.value === "") { input.value = "99"; }  // moving a row puts it in use
    if (up) { list.insertBefore(row, other); } else { list.insertBefore(other, row); }
    renumber(list);
  }
  function setUp(list) {
    list.querySelectorAll("li").forEach(function (row) {
      [["↑", true, list.dataset.up], ["↓", false, list.dataset.down]].forEach(function (spec) {
        var button = document.createElement("button");
        button.type = "button";
        button.className = "link move";
        button.textContent = spec[0];
        button.setAttribute("aria-label", spec[2] || "");
        button.addEventListener("click", function () { move(row, spec[1]); });
        row.appendChild(button);
      });
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("ol[data-tiebreaks]").forEach(setUp);
  });
})();
