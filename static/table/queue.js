/* The table page's outbox, in the browser's localStorage so that closing the tab, a reload or a
   dead battery loses nothing. Every write (a hand, a confirmation, an undo...) goes through it,
   online or not, and is sent in order, one at a time. Each hand carries the id the page made
   for it, so a write that reached the server before the connection dropped is recognised when
   sent again: recorded once. A write the server refuses becomes a conflict for the scorekeeper
   to resolve; the writes after it wait. */
(function () {
  "use strict";

  function uuid4() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var b = new Uint8Array(16);
    crypto.getRandomValues(b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  function Outbox(tableId) {
    var prefix = "kaiser.table." + tableId + ".";
    function read(name) {
      try { return JSON.parse(localStorage.getItem(prefix + name) || "[]"); } catch (e) { return []; }
    }
    function write(name, value) { localStorage.setItem(prefix + name, JSON.stringify(value)); }

    return {
      uuid: uuid4,
      items: function () { return read("outbox"); },
      add: function (kind, body, extra) {
        var op = { id: uuid4(), kind: kind, body: body, at: Date.now() };
        if (extra) Object.keys(extra).forEach(function (k) { op[k] = extra[k]; });
        var all = read("outbox");
        all.push(op);
        write("outbox", all);
        return op;
      },
      remove: function (id) {
        write("outbox", read("outbox").filter(function (op) { return op.id !== id; }));
      },
      conflicts: function () { return read("conflicts"); },
      conflict: function (op, message) {
        var all = read("conflicts");
        op.message = message;
        all.push(op);
        write("conflicts", all);
        this.remove(op.id);
      },
      resolve: function (id) {
        write("conflicts", read("conflicts").filter(function (op) { return op.id !== id; }));
      },
      get: function (name) {
        try { return JSON.parse(localStorage.getItem(prefix + name)); } catch (e) { return null; }
      },
      set: function (name, value) {
        if (value === null || value === undefined) localStorage.removeItem(prefix + name);
        else localStorage.setItem(prefix + name, JSON.stringify(value));
      }
    };
  }

  window.KaiserOutbox = Outbox;
})();
