// A registrant's own page: the opt-in to browser notifications (Web Push), where the browser
// offers it and the server has keys. The subscription goes to the page's push address.
(function () {
  "use strict";
  var box = document.querySelector("[data-push-key]");
  if (!box || !("serviceWorker" in navigator) || !("PushManager" in window)) return;
  box.hidden = false;
  function key(base64) {
    var padded = (base64 + "===".slice((base64.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded), out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }
  function show(which) {
    box.querySelector("[data-push-on]").hidden = which === "done";
    box.querySelector("[data-push-done]").hidden = which !== "done";
    box.querySelector("[data-push-failed]").hidden = which !== "failed";
  }
  box.querySelector("[data-push-on]").addEventListener("click", function () {
    navigator.serviceWorker.register(box.dataset.worker).then(function (registration) {
      return registration.pushManager.subscribe({
        userVisibleOnly: true, applicationServerKey: key(box.dataset.pushKey)
      });
    }).then(function (subscription) {
      return fetch(box.dataset.pushUrl, {
        method: "POST", credentials: "same-origin",
        headers: {"Content-Type": "application/json", "X-CSRFToken": box.dataset.csrfToken},
        body: JSON.stringify(subscription)
      });
    }).then(function (response) { show(response.ok ? "done" : "failed"); })
      .catch(function () { show("failed"); });
  });
})();
