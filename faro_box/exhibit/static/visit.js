"use strict";
// The visitors' phone page: follow the deal, and place pretend bets (no money) that the
// exhibition settles beside the real ones. Writes carry the CSRF token in a header.
(function () {
  const F = window.Faro;
  let lang = new URLSearchParams(location.search).get("lang") || (navigator.language || "en").slice(0, 2);
  if (!(window.FaroTexts.visit || {})[lang]) lang = "en";
  let csrf = null, me = null, rank = null, stake = 1, copper = false, lastState = null;

  function $(id) { return document.getElementById(id); }

  function say(text, ok) { const m = $("message"); m.textContent = text || ""; m.className = "message " + (ok ? "ok" : "error"); }

  function post(path, body) {
    const headers = { "content-type": "application/json" };
    if (csrf) headers["x-csrf-token"] = csrf;
    return fetch("/exhibit/api/" + path, { method: "POST", headers: headers, body: JSON.stringify(body),
                                           credentials: "same-origin" })
      .then(function (r) { return r.json().then(function (d) { if (!r.ok) throw new Error(d.error || r.status); return d; }); });
  }

  function labels() {
    const u = F.viewTexts("visit", lang);
    $("name-title").textContent = u.name;
    $("name-button").textContent = u.go;
    $("bet-title").textContent = u.bet;
    $("copper").textContent = u.copper;
    $("bet-button").textContent = u.place;
    $("about-text").textContent = u.about;
    document.documentElement.lang = lang;
    document.title = u.pageTitle;
    document.querySelector(".topbar h1").textContent = u.heading;
  }

  function drawMine() {
    const u = F.viewTexts("visit", lang), root = $("mine");
    F.clear(root);
    if (!me) return;
    $("namecard").classList.toggle("hidden", !!me.name);
    $("betcard").classList.toggle("hidden", !me.name);
    if (!me.name) return;
    root.appendChild(F.el("h2", null, me.name));
    root.appendChild(F.el("p", null, F.count(u, "balanceChips", Math.abs(Number(me.balance)), { amount: F.amount(me.balance) })));
    const bets = (me.open_bets || []).map(function (b) { return b.rank + (b.copper ? " (c)" : "") + " × " + b.stake; });
    root.appendChild(F.el("p", null, u.open + (bets.length ? bets.join(", ") : u.none)));
    (me.results || []).slice().reverse().slice(0, 4).forEach(function (r) {
      root.appendChild(F.el("p", "muted", "#" + r.turn + " " + r.what + ": " + r.result + " " + F.amount(r.amount)));
    });
  }

  function drawPicker() {
    const ranks = $("ranks");
    F.clear(ranks);
    F.RANKS.forEach(function (r) {
      const b = F.el("button", r === rank ? "on" : "", r);
      b.dataset.rank = r;
      b.addEventListener("click", function () { rank = r; drawPicker(); });
      ranks.appendChild(b);
    });
    const stakes = $("stakes");
    F.clear(stakes);
    const max = (me && me.max_stake) || 5;
    for (let i = 1; i <= max; i++) {
      const b = F.el("button", i === stake ? "on" : "", String(i));
      b.dataset.stake = String(i);
      b.addEventListener("click", function () { stake = i; drawPicker(); });
      stakes.appendChild(b);
    }
    $("copper").classList.toggle("on", copper);
    $("bet-button").disabled = !rank;
  }

  function drawTable(state) {
    if (!state) return;
    const t = F.texts(lang);
    F.renderStatus($("status"), state, t);
    F.renderLastTurn($("lastturn"), state, t);
  }

  function refresh() {
    fetch("/exhibit/api/visitor", { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (d) { if (d) { csrf = d.csrf; me = d; drawMine(); } });
    fetch("/api/state", { cache: "no-store" }).then(function (r) { return r.json(); })
      .then(function (s) { lastState = s; drawTable(s); document.body.dataset.seq = String(s.seq); });
  }

  $("name-button").addEventListener("click", function () {
    const name = $("name").value;
    const join = csrf ? Promise.resolve(me) : post("join", {}).then(function (d) { csrf = d.csrf; return d; });
    join.then(function () { return post("name", { name: name }); })
      .then(function (d) { me = d; say("", true); drawMine(); drawPicker(); })
      .catch(function (e) { say(e.message, false); });
  });
  $("copper").addEventListener("click", function () { copper = !copper; drawPicker(); });
  $("bet-button").addEventListener("click", function () {
    post("bet", { rank: rank, stake: stake, copper: copper })
      .then(function (d) {
        me = d;
        say(F.viewTexts("visit", lang).placed + d.placed.rank + (d.placed.copper ? " (c)" : "") + " × " + d.placed.stake, true);
        drawMine();
      })
      .catch(function (e) { say(e.message, false); });
  });
  document.querySelectorAll(".langbar button").forEach(function (b) {
    b.addEventListener("click", function () { lang = b.dataset.lang; labels(); drawMine(); drawTable(lastState); });
  });
  labels();
  drawPicker();
  refresh();
  setInterval(refresh, 2500);
})();
