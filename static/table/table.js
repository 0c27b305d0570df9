/* The table page. The server renders the board (seats, scores, the form, the score sheet) and
   decides every rule; this script reads taps, asks the server for a preview, sends every write
   through the outbox (queue.js) in order, swaps in the board the server answers with, keeps the
   clock (clock.js), and keeps working offline: entries wait on this device, the page says how
   many, and they go when the connection returns. Plain JavaScript, no framework. */
(function () {
  "use strict";

  var config = JSON.parse(document.getElementById("table-config").textContent);
  var text = config.text;
  var urls = config.urls;
  var state = config.state;
  var box = window.KaiserOutbox(state.table);
  var clock = window.KaiserClock;
  var boardEl = document.getElementById("board");
  var online = navigator.onLine !== false;
  var serverFailing = false; // the server's last answer was its own error (5xx)
  var inFlight = null; // the id of the write being sent
  var previewSeq = 0;
  var previewOk = false;
  var undoArmed = null;
  var SUITS = { clubs: "♣", diamonds: "♦", hearts: "♥", spades: "♠" };

  function $(selector, root) { return (root || document).querySelector(selector); }
  function $all(selector, root) { return Array.prototype.slice.call((root || document).querySelectorAll(selector)); }
  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, name) { return values[name]; });
  }
  function game() { return state.game; }

  /* --- Talking to the server ---------------------------------------------------------------- */

  function csrfToken() {
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (match) return decodeURIComponent(match[1]);
    var input = $("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function call(method, url, body) {
    var sentAt = Date.now();
    var options = { method: method, credentials: "same-origin", headers: { "Accept": "application/json" } };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.headers["X-CSRFToken"] = csrfToken();
      options.body = JSON.stringify(body);
    }
    return fetch(url, options).then(function (response) {
      var receivedAt = Date.now();
      return response.json().catch(function () { return {}; }).then(function (data) {
        if (data && data.state) clock.sample(data.state.server_now, sentAt, receivedAt);
        if (data && data.state) box.set("offset", clock.offset);
        serverFailing = response.status >= 500;
        setOnline(true);
        return { ok: response.ok, status: response.status, data: data || {} };
      });
    }, function () {
      setOnline(false);
      return { ok: false, status: 0, data: {} };
    });
  }

  function setOnline(value) {
    if (online !== value) { online = value; if (value) flushSoon(); }
    renderNet();
  }

  /* --- The board ------------------------------------------------------------------------------ */

  function applyAnswer(data) {
    var before = game();
    var sameGame = !!(before && data.state && data.state.game && data.state.game.id === before.id);
    if (data.state) state = data.state;
    if (data.board !== undefined) {
      var kept = sameGame ? readChoices() : null; // what the scorekeeper was tapping stays
      boardEl.innerHTML = data.board;
      restoreChoices(kept);
      box.set("board", { html: data.board, state: state });
    }
    afterBoard();
  }

  function afterBoard() {
    previewOk = false;
    undoArmed = null;
    renderKeeper();
    renderLocal();
    renderClock();
    onFormChange();
  }

  function refreshBoard() {
    return call("GET", urls.board).then(function (r) { if (r.ok) applyAnswer(r.data); });
  }

  /* --- The form ------------------------------------------------------------------------------- */

  function form() { return $("#entry", boardEl); }
  function picked(name) {
    var input = $("input[name=" + name + "]:checked", form() || boardEl);
    return input ? input.value : null;
  }
  function choose(name, value) {
    var f = form();
    if (!f) return;
    $all("input[name=" + name + "]", f).forEach(function (input) {
      input.checked = value !== null && value !== undefined && input.value === String(value);
    });
  }

  function readChoices() {
    var f = form();
    if (!f) return null;
    var kept = {};
    $all("input:checked", f).forEach(function (input) { kept[input.name] = input.value; });
    kept.__misdeal = !!($("#misdeal", f) && $("#misdeal", f).open);
    return kept;
  }

  function restoreChoices(kept) {
    var f = form();
    if (!f || !kept) return;
    Object.keys(kept).forEach(function (name) {
      if (name === "__misdeal") return;
      if (name === "forced") { $("input[name=forced]", f).checked = true; return; }
      choose(name, kept[name]);
    });
    if (kept.__misdeal && $("#misdeal", f)) $("#misdeal", f).open = true;
  }

  function fillForm(entry) {
    var f = form();
    if (!f || !entry) return;
    f.reset();
    if (entry.kind === "misdeal") {
      if ($("#misdeal", f)) $("#misdeal", f).open = true;
      choose("misdeal_reason", entry.misdeal_reason);
    } else {
      choose("bidder", entry.bidder);
      choose("bid", entry.bid);
      choose("contract", entry.contract === "trump" ? entry.trump : entry.contract);
      choose("tricks", entry.bidding_team_tricks);
      choose("five_hearts", entry.five_hearts);
      choose("three_spades", entry.three_spades);
      choose("bidder_tricks", entry.bidder_tricks);
      var forced = $("input[name=forced]", f);
      if (forced) forced.checked = !!entry.forced;
    }
    onFormChange();
  }

  function misdealOpen() {
    var details = form() && $("#misdeal", form());
    return !!(details && details.open);
  }

  /* The entry as the server takes it, and the first thing missing or impossible. */
  function readEntry() {
    var f = form();
    if (misdealOpen()) {
      var reason = picked("misdeal_reason");
      return { entry: { kind: "misdeal", misdeal_reason: reason }, missing: !reason, problem: null };
    }
    var contract = picked("contract");
    var isSuit = contract && SUITS[contract];
    var entry = {
      kind: "played",
      bidder: picked("bidder") === null ? null : Number(picked("bidder")),
      bid: picked("bid") === null ? null : Number(picked("bid")),
      contract: isSuit ? "trump" : contract,
      trump: isSuit ? contract : null,
      forced: !!($("input[name=forced]", f) && $("input[name=forced]", f).checked),
      bidding_team_tricks: picked("tricks") === null ? null : Number(picked("tricks")),
      five_hearts: picked("five_hearts"),
      three_spades: picked("three_spades"),
      bidder_tricks: picked("bidder_tricks") === null ? null : Number(picked("bidder_tricks"))
    };
    if (entry.contract !== "kaiser") entry.bidder_tricks = null;
    var missing = entry.bidder === null || entry.bid === null || !entry.contract ||
      entry.bidding_team_tricks === null || !entry.five_hearts || !entry.three_spades ||
      (entry.contract === "kaiser" && entry.bidder_tricks === null && $("#bidder-tricks", f));
    return { entry: entry, missing: !!missing, problem: missing ? null : localProblem(entry) };
  }

  /* The checks the page can make on its own (the server checks everything again). */
  function localProblem(entry) {
    var f = form();
    var bidders = entry.bidder % 2 === 0 ? "ns" : "ew";
    var other = bidders === "ns" ? "ew" : "ns";
    var tricks = entry.bidding_team_tricks;
    var empty = tricks === 0 ? bidders : tricks === 8 ? other : null;
    var cards = [["five_hearts", f.dataset.good], ["three_spades", f.dataset.bad]];
    for (var i = 0; empty && i < cards.length; i++) {
      if (entry[cards[i][0]] === empty) {
        return fill(text.card_no_tricks, {
          team: text[empty], other: text[empty === "ns" ? "ew" : "ns"], card: cards[i][1]
        });
      }
    }
    if (entry.forced && entry.bidder !== localDealer()) {
      return fill(text.forced_dealer, { dealer: text["seat" + localDealer()] });
    }
    return null;
  }

  function onFormChange() {
    var f = form();
    if (!f) return;
    var kaiserRow = $("#bidder-tricks", f);
    if (kaiserRow) kaiserRow.hidden = picked("contract") !== "kaiser";
    f.classList.toggle("is-misdeal", misdealOpen());
    var read = readEntry();
    var preview = $("#preview", f);
    var record = $("#record", f);
    previewOk = false;
    record.disabled = true;
    if (needKeeper()) { preview.innerHTML = ""; return; }
    if (read.missing) { preview.innerHTML = ""; return; }
    if (!online || box.items().length || box.conflicts().length || !game()) {
      // No server to ask (or it has not seen the hands before this one yet): the page's own
      // checks, then the server judges the hand when it arrives.
      if (read.problem) { showRefusal(preview, [read.problem]); return; }
      preview.innerHTML = '<p class="muted">' + escapeHtml(text.no_preview) + "</p>";
      record.disabled = false;
      return;
    }
    var seq = ++previewSeq;
    call("POST", urls.preview, { game_id: game().id, entry: read.entry }).then(function (r) {
      if (seq !== previewSeq || form() !== f) return;
      if (r.ok) {
        preview.innerHTML = r.data.preview;
        previewOk = true;
        record.disabled = false;
      } else if (r.status === 0) {
        preview.innerHTML = '<p class="muted">' + escapeHtml(text.no_preview) + "</p>";
        record.disabled = false;
      } else {
        showRefusal(preview, refusalMessages(r.data));
      }
    });
  }

  function refusalMessages(data) {
    if (data.refusals && data.refusals.length) return data.refusals.map(function (r) { return r.message; });
    return [data.detail || text.error];
  }

  function showRefusal(element, messages) {
    element.innerHTML = '<div class="refusal" role="alert">' +
      messages.map(function (m) { return "<p>" + escapeHtml(m) + "</p>"; }).join("") + "</div>";
  }

  function escapeHtml(value) {
    return String(value).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }

  function onSubmit(event) {
    event.preventDefault();
    var f = form();
    var read = readEntry();
    if (!game() || read.missing || read.problem || needKeeper()) return;
    var entry = read.entry;
    entry.completed_at = new Date(clock.now()).toISOString();
    var number = localNextNumber();
    var body = {
      game_id: game().id,
      number: number,
      client_id: box.uuid(),
      entry: entry,
      entered_by_seat: keeper()
    };
    box.add("hands", body, { number: number, dealer: localDealer(), verify: !!state.verification });
    f.reset();
    if ($("#misdeal", f)) $("#misdeal", f).open = false;
    $("#preview", f).innerHTML = online ? "" : '<p class="muted">' + escapeHtml(text.queued) + "</p>";
    renderLocal();
    onFormChange();
    flush();
  }

  /* --- The scorekeeper's seat (verification) -------------------------------------------------- */

  function keeper() {
    var seat = box.get("keeper");
    return seat === null || seat === undefined ? null : Number(seat);
  }
  function needKeeper() { return !!state.verification && keeper() === null; }

  function renderKeeper() {
    var f = form();
    if (!f || !state.verification) return;
    var seat = keeper();
    $("#keeper", f).hidden = seat !== null;
    $("#keeper-set", f).hidden = seat === null;
    if (seat !== null) $("#keeper-name", f).textContent = text["seat" + seat];
  }

  /* --- What waits on this device: queued hands, a pending hand to confirm, the undo bar ------- */

  function queuedHands() {
    var g = game();
    return box.items().filter(function (op) { return op.kind === "hands" && g && op.body.game_id === g.id; });
  }

  function settledNumbers(kind) {
    var found = {};
    box.items().forEach(function (op) { if (op.kind === kind) found[op.body.number] = op; });
    return found;
  }

  function localNextNumber() {
    var g = game();
    var undone = box.items().filter(function (op) { return op.kind === "undo"; }).length;
    var discarded = box.items().filter(function (op) { return op.kind === "discard"; }).length;
    return (g ? g.next_number : 1) + (g && g.pending ? 1 : 0) + queuedHands().length - undone - discarded;
  }

  function localDealer() {
    var g = game();
    if (!g) return 0;
    var dealer = g.dealer;
    var step = function (kind) { return kind === "misdeal" && g.misdeal_same_dealer ? 0 : 1; };
    if (g.pending && !settledNumbers("discard")[g.pending]) {
      dealer = (dealer + step(pendingEntry() ? pendingEntry().kind : "played")) % 4;
    }
    box.items().forEach(function (op) {
      if (op.kind === "undo" && g.last) dealer = (dealer + 3) % 4;
    });
    queuedHands().forEach(function (op) { dealer = (dealer + step(op.body.entry.kind)) % 4; });
    return dealer;
  }

  function pendingEntry() {
    var node = $("#pending-entry", boardEl);
    return node ? JSON.parse(node.textContent) : null;
  }

  /* The last queued hand still waiting for the other partnership on this device. */
  function localPending() {
    if (!state.verification) return null;
    var confirmed = settledNumbers("confirm");
    var hands = queuedHands();
    var last = hands[hands.length - 1];
    if (!last || confirmed[last.body.number]) return null;
    return last;
  }

  function renderLocal() {
    var g = game();
    var f = form();
    var serverPending = $("#pending", boardEl);
    var settled = g && g.pending && (settledNumbers("confirm")[g.pending] || settledNumbers("discard")[g.pending]);
    if (serverPending) serverPending.hidden = !!settled;
    var local = localPending();
    renderLocalPending(local);
    if (f) {
      var open = g && g.status === "in_progress" && g.round_started && (!g.pending || settled);
      f.hidden = !open || !!local;
      $("#hand-number", f).textContent = localNextNumber();
      $("#dealer-name", f).textContent = text["seat" + localDealer()];
    }
    var dealer = localDealer();
    $all(".seat", boardEl).forEach(function (seat) {
      var isDealer = g && g.status === "in_progress" && Number(seat.dataset.seat) === dealer;
      seat.classList.toggle("dealer", !!isDealer);
      var badge = $(".deal-badge", seat);
      if (badge) badge.hidden = !isDealer;
    });
    renderQueuedRows();
    renderUndo();
    renderNet();
    renderConflicts();
  }

  function summary(entry) {
    if (entry.kind === "misdeal") return form() ? form().dataset.misdeal : "";
    var contract = entry.contract === "trump" ? entry.bid + " " + SUITS[entry.trump] : entry.bid + " " + (entry.contract === "kaiser" ? "K" : "NT");
    return text["seat" + entry.bidder] + " " + contract;
  }

  function renderQueuedRows() {
    var body = $("#sheet-body", boardEl);
    if (!body) return;
    $all("tr.queued", body).forEach(function (row) { row.remove(); });
    $all("tr.undone", body).forEach(function (row) { row.classList.remove("undone"); });
    var hands = queuedHands();
    if (hands.length) $all("tr.empty", body).forEach(function (row) { row.remove(); });
    hands.forEach(function (op) {
      var e = op.body.entry;
      var row = document.createElement("tr");
      row.className = "queued";
      row.dataset.client = op.body.client_id;
      var cells = e.kind === "misdeal"
        ? [op.number, text["seat" + op.dealer].charAt(0), summary(e), "", "", "", text.queued_row]
        : [op.number, text["seat" + op.dealer].charAt(0), summary(e), e.bidding_team_tricks,
          e.five_hearts ? text[e.five_hearts] : "", e.three_spades ? text[e.three_spades] : "", text.queued_row];
      cells.forEach(function (value, index) {
        var cell = document.createElement("td");
        if (e.kind !== "misdeal" && (index === 4 || index === 5)) cell.className = "card-col";
        cell.textContent = value === null || value === undefined ? "" : value;
        if (index === cells.length - 1) cell.colSpan = 2;
        row.appendChild(cell);
      });
      body.appendChild(row);
    });
    box.items().forEach(function (op) {
      if (op.kind !== "undo") return;
      var row = $('tr[data-number="' + op.body.number + '"]', body);
      if (row) row.classList.add("undone");
    });
  }

  function renderUndo() {
    var g = game();
    var bar = $(".undo-bar", boardEl);
    var sheet = $(".sheet", boardEl);
    if (!bar && sheet) {
      bar = document.createElement("div");
      bar.className = "undo-bar";
      bar.innerHTML = '<button type="button" class="secondary" data-action="undo"></button>';
      sheet.parentNode.insertBefore(bar, sheet);
    }
    if (!bar) return;
    var button = $("[data-action=undo]", bar);
    var hands = queuedHands();
    var last = hands[hands.length - 1];
    var busy = box.items().some(function (op) { return op.kind === "undo" || op.kind === "discard"; });
    delete button.dataset.local;
    if (last && last.id !== inFlight && !localPending()) {
      button.dataset.local = last.id;
      button.dataset.number = last.number;
      bar.hidden = false;
    } else if (!last && g && g.may_undo && g.last && !busy) {
      button.dataset.number = g.last.number;
      button.dataset.client = g.last.client_id;
      bar.hidden = false;
    } else {
      bar.hidden = true;
    }
    if (undoArmed !== button) button.textContent = fill(text.undo_label, { number: button.dataset.number });
  }

  function renderLocalPending(op) {
    var panel = $("#local-pending", boardEl);
    if (!op) { if (panel) panel.remove(); return; }
    if (!panel) {
      panel = document.createElement("section");
      panel.id = "local-pending";
      panel.className = "panel confirm";
      var f = form();
      if (f) f.parentNode.insertBefore(panel, f);
      else boardEl.appendChild(panel);
    }
    var entered = op.body.entered_by_seat;
    // Only the two seats of the other partnership may confirm (as the server's panel shows).
    var seats = $all(".seat", boardEl).map(function (seat) {
      return { seat: Number(seat.dataset.seat), name: $(".seat-name", seat).textContent, player: $(".player", seat).textContent };
    }).filter(function (s) { return s.seat % 2 !== entered % 2; });
    var team = entered % 2 === 0 ? "ew" : "ns";
    panel.dataset.number = op.number;
    panel.dataset.client = op.body.client_id;
    panel.dataset.entered = entered;
    panel.innerHTML =
      "<h2>" + escapeHtml(fill(text.pending_title, { number: op.number })) + "</h2>" +
      '<p class="summary"><strong>' + escapeHtml(summary(op.body.entry)) + "</strong></p>" +
      "<p>" + escapeHtml(fill(text.pending_help, { team: text[team] })) + "</p>" +
      '<div class="picks two">' + seats.map(function (s) {
        return '<button type="button" class="pick-button team-' + (s.seat % 2 === 0 ? "ns" : "ew") +
          '" data-action="confirm" data-seat="' + s.seat + '">' + escapeHtml(s.name) +
          "<small>" + escapeHtml(s.player) + "</small></button>";
      }).join("") + "</div>" +
      '<div class="actions"><button type="button" class="secondary" data-action="discard">' +
      escapeHtml(text.not_right) + "</button></div>";
  }

  function renderConflicts() {
    var holder = document.getElementById("conflicts");
    var all = box.conflicts();
    holder.hidden = !all.length;
    holder.innerHTML = all.map(function (op) {
      var edit = op.kind === "hands"
        ? '<button type="button" class="secondary" data-conflict="edit" data-id="' + op.id + '">' + escapeHtml(text.conflict_edit) + "</button>"
        : "";
      return '<div class="conflict" data-id="' + op.id + '"><p><strong>' +
        escapeHtml(fill(text.conflict, { number: op.number || op.body.number || "" })) + "</strong> " +
        escapeHtml(op.message || "") + '</p><div class="actions">' + edit +
        '<button type="button" class="secondary" data-conflict="discard" data-id="' + op.id + '">' +
        escapeHtml(text.conflict_discard) + "</button></div></div>";
    }).join("");
  }

  function renderNet() {
    var net = document.getElementById("net");
    var waiting = box.items().length;
    net.classList.toggle("offline", !online || serverFailing);
    net.classList.toggle("busy", waiting > 0);
    document.getElementById("net-text").textContent = !online ? text.offline
      : serverFailing ? text.server_failing : inFlight ? text.sending : text.online;
    var count = document.getElementById("queue-count");
    var hands = box.items().filter(function (op) { return op.kind === "hands"; }).length;
    count.hidden = !waiting;
    if (hands) { // the hands themselves; their confirmations go with them
      count.textContent = hands === 1 ? text.waiting_one : fill(text.waiting_many, { count: hands });
    } else {
      count.textContent = waiting === 1 ? text.changes_one : fill(text.changes_many, { count: waiting });
    }
  }

  function renderClock() {
    clock.render(document.getElementById("clock"), game(), text);
  }

  function notice(message, isError) {
    var element = document.getElementById("notice");
    element.hidden = !message;
    element.className = "notice" + (isError ? " error" : "");
    element.textContent = message || "";
  }

  /* --- Sending, in order ---------------------------------------------------------------------- */

  var flushTimer = null;
  var retryDelay = 1000;
  function flushSoon() {
    if (flushTimer) return;
    flushTimer = setTimeout(function () { flushTimer = null; flush(); }, 50);
  }

  function flush() {
    if (inFlight || box.conflicts().length) { renderNet(); return; }
    var op = box.items()[0];
    if (!op) { renderNet(); return; }
    inFlight = op.id;
    renderNet();
    call("POST", urls[op.kind], op.body).then(function (r) {
      inFlight = null;
      if (r.status === 0) { // no answer: it stays, in its place, and goes again soon
        retryDelay = Math.min(retryDelay * 2, 15000);
        setTimeout(flush, retryDelay);
        renderLocal();
        return;
      }
      retryDelay = 1000;
      if (r.ok) {
        box.remove(op.id);
        notice("");
        applyAnswer(r.data);
        flush();
        return;
      }
      if (r.status === 403) { notice(r.data.detail || text.refused_device, true); renderLocal(); return; }
      if (r.status >= 500 || r.status === 429) { notice(text.error, true); renderLocal(); return; }
      var messages = refusalMessages(r.data).join(" ");
      if (op.kind === "hands") {
        box.conflict(op, messages); // the writes after it wait until the scorekeeper decides
      } else {
        box.remove(op.id); // a confirmation or undo refused: say why, the board shows the truth
        notice(messages, true);
      }
      refreshBoard().then(function () { renderLocal(); flush(); });
    });
  }

  /* --- Taps on the board ---------------------------------------------------------------------- */

  function onClick(event) {
    var target = event.target.closest("[data-action], [data-conflict]");
    if (!target) return;
    var g = game();
    if (target.dataset.conflict) return onConflict(target.dataset.conflict, target.dataset.id);
    var action = target.dataset.action;
    if (action === "change-keeper") { box.set("keeper", null); renderKeeper(); onFormChange(); return; }
    if (!g) return;
    if (action === "confirm") {
      var panel = target.closest("[data-number]");
      var seat = Number(target.dataset.seat);
      var entered = Number(panel.dataset.entered);
      if (panel.id === "local-pending" && seat % 2 === entered % 2) {
        // Checked here because no server can be asked; online, the server says the same.
        notice(fill(text.same_partnership, { seat: text["seat" + seat], team: text[entered % 2 === 0 ? "ew" : "ns"] }), true);
        return;
      }
      notice("");
      box.add("confirm", { game_id: g.id, number: Number(panel.dataset.number), seat: seat, client_id: panel.dataset.client });
      renderLocal();
      flush();
    } else if (action === "discard") {
      var pending = target.closest("[data-number]");
      var entry = pending.id === "local-pending" ? localPending().body.entry : pendingEntry();
      if (pending.id === "local-pending" && localPending().id !== inFlight) {
        dropQueuedHand(localPending());
      } else {
        box.add("discard", { game_id: g.id, number: Number(pending.dataset.number), client_id: pending.dataset.client, reason: "not confirmed" });
      }
      renderLocal();
      fillForm(entry);
      flush();
    } else if (action === "undo") {
      if (undoArmed !== target) { // a second tap undoes: one stray tap changes nothing
        undoArmed = target;
        target.textContent = fill(text.undo_again, { number: target.dataset.number });
        setTimeout(function () { if (undoArmed === target) { undoArmed = null; renderUndo(); } }, 5000);
        return;
      }
      undoArmed = null;
      if (target.dataset.local) {
        dropQueuedHand(box.items().filter(function (op) { return op.id === target.dataset.local; })[0]);
      } else {
        box.add("undo", { game_id: g.id, number: Number(target.dataset.number), client_id: target.dataset.client });
      }
      renderLocal();
      onFormChange();
      flush();
    } else if (action === "acknowledge") {
      target.disabled = true;
      box.add("acknowledge", { game_id: g.id, team: target.dataset.team });
      flush();
    }
  }

  /* A hand not yet sent is taken back here: it and the confirmation waiting with it. */
  function dropQueuedHand(op) {
    if (!op) return;
    box.items().forEach(function (other) {
      if (other.id === op.id || (other.body.client_id === op.body.client_id && other.kind !== "hands")) {
        box.remove(other.id);
      }
    });
  }

  function onConflict(what, id) {
    var op = box.conflicts().filter(function (o) { return o.id === id; })[0];
    box.resolve(id);
    if (op && op.kind === "hands") { // its confirmation, if one waits, goes with it
      box.items().forEach(function (other) {
        if (other.body.client_id === op.body.client_id) box.remove(other.id);
      });
    }
    renderConflicts();
    if (what === "edit" && op && op.kind === "hands") fillForm(op.body.entry);
    renderLocal();
    flush();
  }

  function onChange(event) {
    var input = event.target;
    if (input.name === "keeper") { box.set("keeper", Number(input.value)); renderKeeper(); }
    if (input.name === "forced" && input.checked) { // everyone passed: the dealer, at the minimum
      choose("bidder", localDealer());
      if (game()) choose("bid", game().min_bid);
    }
    if (input.closest && input.closest("#entry")) onFormChange();
  }

  /* --- Keeping up with the server --------------------------------------------------------------- */

  function poll() {
    if (!online && navigator.onLine === false) return;
    if (box.items().length) { flush(); return; }
    call("GET", urls.state).then(function (r) {
      if (!r.ok) return;
      var fresh = r.data.state;
      var before = state.game;
      if (!before || !fresh.game || before.id !== fresh.game.id) {
        if (!box.items().length) window.location.reload();
        return;
      }
      if (before.version !== fresh.game.version || state.waiting !== fresh.waiting) { refreshBoard(); return; }
      state = fresh;
      renderClock();
    });
  }

  /* --- Start ------------------------------------------------------------------------------------ */

  function start() {
    var saved = box.get("board");
    var savedGame = saved && saved.state && saved.state.game;
    if (savedGame && game() && savedGame.id === game().id && savedGame.version > game().version) {
      boardEl.innerHTML = saved.html; // reloaded offline: the latest board this device saw
      state = saved.state;
    }
    var offset = box.get("offset");
    if (typeof offset === "number") clock.offset = offset;
    boardEl.addEventListener("click", onClick);
    document.getElementById("conflicts").addEventListener("click", onClick);
    boardEl.addEventListener("change", onChange);
    boardEl.addEventListener("submit", onSubmit);
    boardEl.addEventListener("reset", function () { setTimeout(onFormChange, 0); });
    boardEl.addEventListener("toggle", function () { onFormChange(); }, true);
    window.addEventListener("online", function () { setOnline(true); flush(); });
    window.addEventListener("offline", function () { setOnline(false); });
    afterBoard();
    setInterval(renderClock, 500);
    setInterval(function () { if (box.items().length) flush(); }, 4000);
    setInterval(poll, state.waiting || (game() && game().status === "finished") ? 5000 : 15000);
    if ("serviceWorker" in navigator && window.isSecureContext) {
      var first = !navigator.serviceWorker.controller;
      navigator.serviceWorker.register(urls.sw, { scope: "/table/" }).then(function () {
        return navigator.serviceWorker.ready;
      }).then(function () {
        // The first visit was not served through the worker: keep this page for offline reloads.
        if (first && window.caches) {
          caches.open("kaiser-table-pages").then(function (cache) { return cache.add(urls.page); }).catch(function () {});
        }
      }).catch(function () {});
    }
    call("GET", urls.state).then(function (r) {
      if (r.ok && game() && r.data.state.game && r.data.state.game.version !== game().version) refreshBoard();
      flush();
    });
  }

  start();
})();
