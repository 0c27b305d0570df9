// The one handler for htmx error answers: a refusal shows where the request was made.
//
// htmx leaves 4xx and 5xx answers unswapped, so a refused change looked done (a dropdown kept
// the new role, nothing was said). Here:
// - a 4xx answer in HTML is the server's own rendering of the refusal (the row with its old
//   value and the sentence): it is swapped in like any answer;
// - any other failure (JSON, a 5xx, no answer at all) puts the form back as it was and shows a
//   sentence right after the element that made the request: the answer's "detail" when it has
//   one, else the page's own sentence (body[data-htmx-error]).
(function () {
  "use strict";

  function sentenceFrom(xhr) {
    if (!xhr) { return ""; }
    var type = xhr.getResponseHeader("Content-Type") || "";
    if (type.indexOf("json") !== -1) {
      try {
        var body = JSON.parse(xhr.responseText);
        if (body && typeof body.detail === "string") { return body.detail; }
      } catch (ignored) { /* not JSON after all */ }
    }
    return "";
  }

  function show(elt, text) {
    var fallback = document.body.getAttribute("data-htmx-error") || "";
    var form = elt.closest("form") || (elt.tagName === "FORM" ? elt : null);
    if (form) { form.reset(); }  // the controls as the page showed them: nothing changed
    var anchor = form || elt;
    var note = anchor.nextElementSibling;
    if (!note || !note.classList.contains("htmx-error")) {
      note = document.createElement("p");
      note.className = "htmx-error";
      note.setAttribute("role", "alert");
      anchor.insertAdjacentElement("afterend", note);
    }
    note.textContent = text || fallback;
  }

  // A live part's refresh that fails is said by static/public/live.js, in the page's status line.
  function isLive(elt) { return !!(elt && elt.closest && elt.closest("[data-live]")); }

  document.addEventListener("htmx:beforeSwap", function (evt) {
    var xhr = evt.detail.xhr;
    if (!xhr || xhr.status < 400 || isLive(evt.detail.elt)) { return; }
    var type = xhr.getResponseHeader("Content-Type") || "";
    if (xhr.status < 500 && type.indexOf("text/html") !== -1 && xhr.responseText) {
      evt.detail.shouldSwap = true;  // the server rendered the refusal in place
      evt.detail.isError = false;
      return;
    }
    evt.detail.shouldSwap = false;
    show(evt.detail.elt, sentenceFrom(xhr));
  });

  document.addEventListener("htmx:sendError", function (evt) {
    if (isLive(evt.detail.elt)) { return; }
    show(evt.detail.elt, "");
  });

  document.addEventListener("htmx:beforeRequest", function (evt) {
    var form = evt.detail.elt.closest("form");
    var note = form && form.nextElementSibling;
    if (note && note.classList.contains("htmx-error")) { note.remove(); }
  });
})();
