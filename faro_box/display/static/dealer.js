"use strict";
// The dealer's page: PIN login, then bets by tapping the layout, card confirmations, the deal.
// Every write carries the CSRF token the login returned; the session cookie is HttpOnly.
(function () {
  const F = window.Faro;
  const $ = function (id) { return document.getElementById(id); };
  let csrf = null, msg = null, player = null, selection = [], callMode = false, copper = false,
      winLose = false, source = null, counter = 0;
  // The page's texts: the box's language until the table's messages name one.
  let T = F.viewTexts("dealer", window.FaroLang || "en");

  function tx(key, fields) { return F.fill(T[key], fields); }

  // The page's fixed texts: every element marked with the key of its text.
  function translate() {
    document.querySelectorAll("[data-text]").forEach(function (node) { node.textContent = T[node.dataset.text]; });
    document.querySelectorAll("[data-text-label]").forEach(function (node) {
      node.setAttribute("aria-label", T[node.dataset.textLabel]);
    });
    document.querySelectorAll("[data-text-placeholder]").forEach(function (node) {
      node.setAttribute("placeholder", T[node.dataset.textPlaceholder]);
    });
    document.querySelectorAll("[data-text-alt]").forEach(function (node) { node.setAttribute("alt", T[node.dataset.textAlt]); });
  }
  translate();

  function say(text, ok) {
    const m = $("message");
    m.textContent = text || "";
    m.className = "message " + (ok ? "ok" : "error");
  }

  async function post(url, body) {
    const response = await fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "content-type": "application/json", "x-csrf-token": csrf || "" },
      body: JSON.stringify(body),
    });
    let doc = {};
    try { doc = await response.json(); } catch (e) { doc = { error: tx("noJson") }; }
    return { status: response.status, doc: doc };
  }

  async function command(body, done) {
    const r = await post("/api/command", body);
    if (r.status === 401) { showLogin(tx("sessionEnded")); return false; }
    if (r.status !== 200) { say(r.doc.error || tx("refused", { status: r.status }), false); return false; }
    say(done || "", true);
    return true;
  }

  function showLogin(text) {
    csrf = null;
    $("desk").classList.add("hidden");
    $("logout").classList.add("hidden");
    $("login").classList.remove("hidden");
    $("login-message").textContent = text || "";
    $("pin").focus();
  }

  function showDesk() {
    $("login").classList.add("hidden");
    $("desk").classList.remove("hidden");
    $("logout").classList.remove("hidden");
    if (!source) source = F.connect(function (m) { msg = m; render(); });
  }

  $("login").addEventListener("submit", async function (e) {
    e.preventDefault();
    const pin = $("pin").value;
    $("pin").value = "";
    const r = await post("/api/login", { pin: pin });
    if (r.status === 200) { csrf = r.doc.csrf; showDesk(); say("", true); }
    else $("login-message").textContent = r.doc.error || tx("refused", { status: r.status });
  });

  $("logout").addEventListener("click", async function () {
    await post("/api/logout", {});
    showLogin("");
  });

  function newId() {
    counter += 1;
    return "w" + Date.now().toString(36) + counter;
  }

  function render() {
    if (!msg) return;
    const s = msg.state, t = F.texts(msg.lang);
    if (T._lang !== t._lang) { T = F.viewTexts("dealer", msg.lang); translate(); }
    F.renderStatus($("status"), s, t);
    F.renderBanners($("banners"), s, t);
    const players = s.players || [];
    if (players.indexOf(player) < 0) player = players.length ? players[0] : null;
    const row = $("players");
    F.clear(row);
    players.forEach(function (p) {
      const b = F.el("button", p === player ? "on" : "", F.displayName(p));
      b.type = "button";
      b.dataset.player = p;
      b.addEventListener("click", function () { player = p; render(); });
      row.appendChild(b);
    });
    F.renderLayout($("layout"), s, t, { selected: selection, showOrder: callMode, onTap: tap, onKind: placeKind });
    $("copper").classList.toggle("on", copper);
    $("copper").setAttribute("aria-pressed", String(copper));
    $("winlose").classList.toggle("on", winLose);
    $("winlose").setAttribute("aria-pressed", String(winLose));
    $("call").classList.toggle("on", callMode);
    // A triple (three of one rank) is called by the order of its colours where the house allows it.
    $("colours").classList.toggle("hidden", !callMode);
    $("call-order").textContent = callMode && selection.length ? selection.join(" \u2192 ") : "";
    renderBets(s);
    renderPending(s, t);
    const next = s.pending ? s.pending.index : s.next_index;
    $("next-card").textContent = (next === null || next === undefined || s.finished) ? "" : tx("cardN", { n: next + 1 });
    const select = $("profile");
    if (!select.options.length) {
      (msg.profiles || []).forEach(function (name) { select.appendChild(new Option(name, name)); });
    }
    if (!$("players-input").value && players.length) $("players-input").value = players.join(", ");
  }

  function renderBets(s) {
    const list = $("bets");
    F.clear(list);
    (s.open_bets || []).forEach(function (bet) {
      const li = F.el("li");
      const what = bet.kind + " " + (bet.ranks || []).join("-") + (bet.order ? " " + bet.order.join("-") : "");
      li.appendChild(F.el("span", "", F.displayName(bet.player) + ": " + what + " \u00d7" + bet.stake +
                          (bet.copper ? " " + tx("coppered") : "")));
      if (bet.barred) li.classList.add("barred");
      const b = F.el("button", "", tx("withdraw"));
      b.type = "button";
      b.dataset.withdraw = bet.id;
      b.addEventListener("click", function () {
        command({ type: "withdraw", player: bet.player, bet_id: bet.id }, tx("withdrawn"));
      });
      li.appendChild(b);
      // Barring freezes a bet until the player says "it goes"; the same button says it.
      const bar = F.el("button", "", bet.barred ? tx("itGoes") : tx("bar"));
      bar.type = "button";
      bar.dataset[bet.barred ? "release" : "bar"] = bet.id;
      bar.addEventListener("click", function () {
        command({ type: bet.barred ? "release" : "bar", player: bet.player, bet_id: bet.id },
                bet.barred ? tx("itGoesDone") : tx("barred"));
      });
      li.appendChild(bar);
      list.appendChild(li);
    });
  }

  function renderPending(s, t) {
    const p = s.pending;
    $("pending").classList.toggle("hidden", !p);
    if (!p) return;
    $("pending-title").textContent = t.pending.replace("{n}", p.index + 1);
    const img = $("snapshot");
    if (p.snapshot) {
      const url = /^[A-Za-z0-9_.-]+$/.test(p.snapshot) ? "/snapshots/" + p.snapshot : p.snapshot;
      if (url.charAt(0) === "/" && img.getAttribute("src") !== url) img.src = url;
      img.classList.remove("hidden");
    } else img.classList.add("hidden");
    const row = $("candidates");
    F.clear(row);
    (p.candidates || []).forEach(function (c) {
      const b = F.el("button", "primary", c);
      b.type = "button";
      b.addEventListener("click", function () { command({ type: "confirm", index: p.index, card: c }, tx("confirmed", { card: c })); });
      row.appendChild(b);
    });
    // A hand passed over the card, or a card was put back: nothing left the box after all.
    const below = p.index > 0 && !(s.queued || []).length ? (s.exposed || [])[p.index - 1] : null;
    if (below) {
      const none = F.el("button", "", tx("noNewCard", { card: below }));
      none.type = "button";
      none.id = "no-card";
      none.addEventListener("click", function () {
        command({ type: "no_card", index: p.index }, tx("noNewCardDone", { card: below }));
      });
      row.appendChild(none);
    }
  }

  function tap(rank) {
    if (callMode) {
      if (selection.some(isColour)) selection = [];
      if (selection.length < 3) selection.push(rank);
    }
    else {
      const i = selection.indexOf(rank);
      if (i >= 0) selection.splice(i, 1);
      else if (selection.length < 4) selection.push(rank);
    }
    render();
  }

  function isColour(name) { return name === "red" || name === "black"; }

  function tapColour(colour) {
    if (!callMode) return;
    if (!selection.every(isColour)) selection = [];
    if (selection.length < 3) selection.push(colour);
    render();
  }

  function stake() { return parseInt($("stake").value, 10); }

  async function placeSpec(spec) {
    if (!player) { say(tx("startFirst"), false); return; }
    spec.id = newId();
    spec.stake = stake();
    const ok = await command({ type: "place", player: player, spec: spec }, tx("betPlaced", { player: F.displayName(player) }));
    if (ok) { selection = []; callMode = false; render(); }
  }

  function placeKind(kind) {
    if (kind === "call") { callMode = true; selection = []; render(); return; }
    const spec = { kind: kind };
    if (kind === "high" && copper) spec.copper = true;
    placeSpec(spec);
  }

  $("place").addEventListener("click", function () {
    if (callMode) {
      if (selection.length !== 3) {
        say(tx("callNeeds"), false);
        return;
      }
      placeSpec({ kind: "call", order: selection.slice() });
      return;
    }
    if (!selection.length) { say(tx("tapRanks"), false); return; }
    let spec;
    if (selection.length === 1) spec = { kind: "rank", ranks: selection.slice() };
    else if (winLose && selection.length === 2) spec = { kind: "win_lose", ranks: selection.slice() };
    else spec = { kind: "group", ranks: selection.slice() };
    if (copper && spec.kind !== "win_lose") spec.copper = true;
    placeSpec(spec);
  });
  $("call").addEventListener("click", function () { callMode = !callMode; selection = []; render(); });
  $("clear").addEventListener("click", function () { selection = []; callMode = false; render(); });
  $("call-red").addEventListener("click", function () { tapColour("red"); });
  $("call-black").addEventListener("click", function () { tapColour("black"); });
  $("copper").addEventListener("click", function () { copper = !copper; render(); });
  $("winlose").addEventListener("click", function () { winLose = !winLose; render(); });
  $("stake-up").addEventListener("click", function () { $("stake").value = String((stake() || 0) + 1); });
  $("stake-down").addEventListener("click", function () { $("stake").value = String(Math.max(1, (stake() || 2) - 1)); });

  // Irreversible buttons want a second tap within 3 s (a dialog would block the kiosk).
  function armed(button, action) {
    let timer = null, label = "";
    button.addEventListener("click", function () {
      if (!timer) {
        label = button.textContent;
        button.textContent = tx("tapAgain", { label: label });
        timer = setTimeout(function () { button.textContent = label; timer = null; }, 3000);
        return;
      }
      clearTimeout(timer); timer = null; button.textContent = label;
      action();
    });
  }
  armed($("undo"), function () {
    // The state this page showed: a repeated request cannot take back a second card.
    command({ type: "undo", after: msg ? msg.seq : undefined }, tx("takenBack"));
  });
  armed($("end"), function () { command({ type: "end_deal" }, tx("dealEnded")); });
  armed($("misdeal"), function () { command({ type: "misdeal" }, tx("misdealDone")); });

  $("enter-card").addEventListener("click", function () {
    if (!msg) return;
    const s = msg.state;
    const index = s.pending ? s.pending.index : s.next_index;
    const card = $("card").value.trim();
    command({ type: "confirm", index: index, card: card }, tx("cardEntered", { card: card })).then(function (ok) {
      if (ok) $("card").value = "";
    });
  });

  $("start").addEventListener("click", function () {
    const names = $("players-input").value.split(/[,\s]+/).filter(function (x) { return x; });
    command({ type: "start_deal", profile: $("profile").value, players: names, house_rules: {} }, tx("newDeal"));
  });

  fetch("/api/session", { credentials: "same-origin" }).then(async function (r) {
    if (r.status === 200) { csrf = (await r.json()).csrf; showDesk(); }
    else showLogin("");
  });
})();
