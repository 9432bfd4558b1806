"use strict";
// The exhibition kiosk: the live table (the audience page's drawing) beside the explanation
// panels, the live odds, the visitors' pretend bets and the QR code; the attract screen between
// deals. Every text goes through textContent.
(function () {
  const F = window.Faro;
  const params = new URLSearchParams(location.search);
  const fixedLang = params.get("lang");
  const ROTATE_MS = 10000;
  let show = null;
  let shownKey = "";
  const started = Date.now();

  function lang() {
    if (fixedLang && (window.FaroTexts.exhibit || {})[fixedLang]) return fixedLang;
    const langs = (show && show.langs) || ["en"];
    const first = Math.max(0, langs.indexOf((show && show.lang) || "en"));
    const step = Math.floor((Date.now() - started) / ROTATE_MS);
    return langs[(first + step) % langs.length];
  }

  function pct(x) { return (100 * x).toFixed(x < 0.1 ? 1 : 0) + " %"; }

  // The panel's text at the largest size at which the whole of it fits its card.
  const PANEL_SIZES = [4.2, 3.9, 3.6, 10 / 3];
  function fitPanel(root) {
    root.classList.remove("tight");
    for (let i = 0; i < PANEL_SIZES.length; i++) {
      root.style.setProperty("--panel", "calc(var(--u) * " + PANEL_SIZES[i] + ")");
      if (root.scrollHeight <= root.clientHeight + 1) return;
    }
    root.classList.add("tight");   // the smallest size still too big: the language strip goes first
  }

  function renderPanel(root, panel, l) {
    F.clear(root);
    if (!panel) return;
    const text = panel.texts[l] || panel.texts.en;
    root.dataset.panel = panel.id;
    root.appendChild(F.el("h2", null, text.title));
    root.appendChild(F.el("p", null, text.body));
    const langs = F.el("div", "langs");
    (show.langs || []).forEach(function (x, i) {
      if (i) langs.appendChild(document.createTextNode(" · "));
      langs.appendChild(x === l ? F.el("b", null, x.toUpperCase()) : document.createTextNode(x.toUpperCase()));
    });
    root.appendChild(langs);
    fitPanel(root);
  }

  function renderOdds(root, odds, u) {
    F.clear(root);
    root.appendChild(F.el("h2", null, u.odds));
    if (!odds) { root.appendChild(F.el("p", "line muted", u.betweenTurns)); return; }
    if (odds.call) {
      root.appendChild(F.el("p", "big", u.call + odds.call.pays + u.trueOdds + odds.call.true_odds));
    } else if (odds.split_next_one_in) {
      const p = F.el("p", "big", u.split);
      p.appendChild(F.el("span", "num", u.oneIn + Math.round(odds.split_next_one_in)));
      root.appendChild(p);
    }
    if (odds.rank_edge) {
      const p = F.el("p", "line", u.edge);
      const lo = pct(odds.rank_edge.low), hi = pct(odds.rank_edge.high);
      p.appendChild(F.el("span", "num", lo === hi ? lo : lo + " – " + hi));
      root.appendChild(p);
    }
    (odds.open_bets || []).filter(function (b) { return b.kind === "rank"; }).slice(0, 3).forEach(function (b) {
      const who = F.displayName(b.player) + ": " + (b.ranks || []).join("-") + (b.copper ? u.coppered : "");
      root.appendChild(F.el("p", "bet", who + " — " + u.wins + " " + pct(b.win) + ", " + u.loses + " " + pct(b.lose) +
                                        ", " + u.splits + " " + pct(b.split)));
    });
  }

  function renderVisitors(root, v, u) {
    F.clear(root);
    root.appendChild(F.el("h2", null, u.visitors));
    if (!v || !v.count) { root.appendChild(F.el("p", "muted", u.nobody)); return; }
    root.appendChild(F.el("p", null, F.count(u, "visitorsTogether", v.count, { amount: F.amount(v.total) })));
    (v.leaders || []).slice(0, 3).forEach(function (x) {
      root.appendChild(F.el("p", null, x.name + " " + F.amount(x.balance)));
    });
  }

  // The QR code only for an address phones can reach; otherwise a line for the curator.
  function renderQr(figure, caption, u) {
    const url = show.visit_url || null;
    const img = figure.querySelector("img");
    figure.classList.toggle("noqr", !url);
    if (url && figure.dataset.url !== url) img.src = "/exhibit/qr.svg?u=" + encodeURIComponent(url);
    if (!url) img.removeAttribute("src");
    figure.dataset.url = url || "";
    document.getElementById(caption).textContent = url ? u.qr : u.noQr;
  }

  function render() {
    if (!show) return;
    const l = lang(), u = F.viewTexts("exhibit", l);
    const key = JSON.stringify([l, show.mode, show.panel && show.panel.id, show.panel && show.panel.variant,
                                show.odds, show.visitors, show.countdown, show.deal, show.next, show.visit_url]);
    if (key === shownKey) return;
    const panelChanged = !shownKey || JSON.parse(shownKey)[2] !== (show.panel && show.panel.id);
    shownKey = key;
    document.body.dataset.mode = show.mode;
    document.body.dataset.lang = l;
    document.title = u.pageTitle;
    document.querySelector(".topbar h1").textContent = u.heading;
    drawTable(l);   // the table's own parts turn with the screen's language, not only at its next event
    const attract = document.getElementById("attract");
    attract.classList.toggle("hidden", show.mode !== "attract");
    document.getElementById("dealtitle").textContent = show.deal ? show.deal.title[l] || show.deal.title.en : "";
    if (show.mode === "attract") {
      document.getElementById("attract-sub").textContent = u.sub;
      const next = show.next;
      document.getElementById("attract-next").textContent = next ? u.next + (next.title[l] || next.title.en) : "";
      document.getElementById("attract-blurb").textContent = next ? next.blurb[l] || "" : "";
      document.getElementById("attract-count").textContent =
        show.countdown !== null && show.countdown !== undefined ? u.startsIn + show.countdown + u.s : "";
      renderPanel(document.getElementById("attract-panel"), show.panel, l);
      renderQr(document.querySelector(".attract-qr"), "attract-qrcaption", u);
    } else {
      const panel = document.getElementById("panel");
      renderPanel(panel, show.panel, l);
      if (panelChanged && show.panel) { panel.classList.remove("flash"); void panel.offsetWidth; panel.classList.add("flash"); }
      renderOdds(document.getElementById("odds"), show.odds, u);
      renderVisitors(document.getElementById("visitors"), show.visitors, u);
      renderQr(document.querySelector(".qr-card"), "qrcaption", u);
    }
  }

  function poll() {
    fetch("/exhibit/api/show", { cache: "no-store" }).then(function (r) { return r.json(); }).then(function (doc) {
      show = doc;
      render();
      document.body.dataset.ready = "1";
    }).catch(function () { /* the server restarts: try again at the next tick */ });
  }

  let table = null, drawn = "";
  function drawTable(l) {
    if (!table || drawn === l + ":" + table.seq) return;
    drawn = l + ":" + table.seq;
    const s = table.state, t = F.texts(l);  // the screen's language, which turns
    F.renderStatus(document.getElementById("status"), s, t);
    F.renderLayout(document.getElementById("layout"), s, t, {});
    F.renderCaseKeeper(document.getElementById("casekeeper"), s, t);
    F.renderAnnouncements(document.getElementById("announcements"), table.announcements, t);
  }

  F.connect(function (msg) { table = msg; drawTable(lang()); });
  poll();
  setInterval(poll, 1000);
  setInterval(render, 1000);
})();
