// Shows a registrant's notification (title, body) and opens their page when it is clicked.
self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {body: event.data.text()}; }
  event.waitUntil(self.registration.showNotification(data.title || "Kaiser Club", {
    body: data.body || "", data: {url: data.url || "/"}
  }));
});
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  event.waitUntil(clients.openWindow(event.notification.data.url));
});
