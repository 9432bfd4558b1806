"use strict";
// Baccarat Banque on the audience and dealer pages. The state never holds a face-down card
// (the server leaves it out), so the pages draw a card back where the hand has a hidden card.
// Every text from the server goes through textContent, never innerHTML.
window.Baccarat = (function () {
  const F = window.Faro;
  const GAME = "baccarat_banque";
  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  const el = F.el, clear = F.clear;

  function texts(lang) { return F.viewTexts("baccarat", lang); }
  function isBank(state) { return !!state && state.game === GAME; }

  function renderStatus(root, s, t) {
    clear(root);
    root.appendChild(el("span", "deal", t.title));
    if (s.bank !== null && s.bank !== undefined) root.appendChild(el("span", "", t.bank + " " + s.bank));
    if (s.coup) root.appendChild(el("span", "turnno", t.coup + " " + s.coup));
    if (s.shoe && s.shoe.remaining !== null) root.appendChild(el("span", "boxcount", F.count(t, "cardsLeft", s.shoe.remaining)));
  }

  function hand(s, t, seat) {
    const box = el("div", "bac-hand");
    box.dataset.seat = seat;
    box.appendChild(el("h2", "", t[seat]));
    const who = seat === "banker" ? s.banker : (s.active || {})[seat];
    if (who) box.appendChild(el("div", "who", F.displayName(who)));
    const row = el("div", "cards");
    ((s.hands || {})[seat] || []).forEach(function (card) {
      row.appendChild(card ? F.cardFace(card) : el("div", "cardface back", ""));
    });
    box.appendChild(row);
    const total = (s.totals || {})[seat];
    if (total !== null && total !== undefined) box.appendChild(el("div", "total", total));
    const last = s.last_coup;
    if (last && seat !== "banker" && last.results && last.results[seat]) {
      const r = last.results[seat];
      const badge = el("div", "bac-result " + r, t[seat] + " " + t[r]);
      badge.dataset.result = r;
      box.appendChild(badge);
    }
    return box;
  }

  function renderShoe(root, s, t) {
    clear(root);
    root.appendChild(el("h2", "", t.shoe));
    const byRank = (s.shoe || {}).by_rank || {};
    const grid = el("div", "ranks");
    RANKS.forEach(function (r) {
      const n = byRank[r];
      const col = el("div", "rk");
      col.dataset.rank = r;
      col.appendChild(el("div", "count", n === undefined ? "" : n));
      const bar = el("div", "bar");
      bar.style.setProperty("--n", n === undefined ? 0 : n);   // 12 of each rank in a full shoe
      col.appendChild(bar);
      col.appendChild(el("div", "label", r));
      grid.appendChild(col);
    });
    root.appendChild(grid);
  }

  function renderSide(root, s, t, announcements) {
    clear(root);
    const fund = el("div", "bac-fund", t.fund + ": " + (s.fund === null ? "—" : s.fund) +
      (s.cover_left !== null && s.cover_left !== undefined ? " (" + t.cover + " " + s.cover_left + ")" : ""));
    root.appendChild(fund);
    const ann = el("div", "announcements");
    ann.setAttribute("aria-live", "polite");
    F.renderAnnouncements(ann, announcements, t);
    root.appendChild(ann);
    if ((s.bets || []).length) {
      root.appendChild(el("h2", "", t.bets));
      const ul = el("ul", "bac-bets" + (s.bets.length > 4 ? " cols2" : ""));
      s.bets.forEach(function (b) {
        const kind = b.banco ? t.banco : b.cheval ? t.cheval : t[b.side];
        const li = el("li", "");
        li.appendChild(el("span", "name", F.displayName(b.player)));
        li.appendChild(el("span", "stake", ": " + b.stake + " (" + kind + ")"));
        ul.appendChild(li);
      });
      root.appendChild(ul);
    }
    const box = el("div", "balances");
    box.appendChild(el("h2", "", t.balances));
    const table = el("div", "baltable bac-bal");
    const changes = {};
    ((s.last_coup || {}).settlements || []).forEach(function (x) {
      changes[x.player] = (changes[x.player] || 0) + Number(x.amount || 0);
      changes[s.banker] = (changes[s.banker] || 0) - Number(x.amount || 0);
    });
    Object.keys(s.balances || {}).forEach(function (p) {
      const banker = p === s.banker;
      const side = banker ? t.banker : t[(s.sides || {})[p]] || "";
      const row = F.balanceRow(banker ? "bankrow" : "", F.displayName(p),
                               banker ? null : F.playerColour(s, p), Number(s.balances[p]), changes[p]);
      row.querySelector(".name").appendChild(el("span", "side", " · " + side));
      const held = row.querySelector(".amount");
      held.className = "amount";   // chips held, not a gain or a loss
      held.textContent = String(s.balances[p]);
      table.appendChild(row);
    });
    box.appendChild(table);
    root.appendChild(box);
  }

  function renderAudience(root, msg) {
    const s = msg.state, t = texts(msg.lang);
    clear(root);
    const main = el("section", "bac-main");
    const hands = el("div", "bac-hands");
    ["right", "banker", "left"].forEach(function (seat) { hands.appendChild(hand(s, t, seat)); });
    main.appendChild(hands);
    const waiting = s.ended ? t.ended : (t.waiting[s.waiting] || "");
    main.appendChild(el("div", "bac-waiting", waiting));
    const shoe = el("div", "bac-shoe");
    shoe.setAttribute("aria-label", t.shoe);
    renderShoe(shoe, s, t);
    main.appendChild(shoe);
    root.appendChild(main);
    const side = el("section", "bac-side");
    renderSide(side, s, t, msg.announcements);
    root.appendChild(side);
    const balances = side.querySelector(".balances");
    F.fitBalances(balances, balances.querySelector(".baltable"));
    F.dropUntilFits(side);
  }

  // The audience page: true when the message was a bank's (and is drawn here).
  function route(msg) {
    const bank = isBank(msg.state);
    document.body.classList.toggle("bac", bank);
    if (!bank) return false;
    renderStatus(document.getElementById("status"), msg.state, texts(msg.lang));
    F.renderBanners(document.getElementById("banners"), { faults: msg.state.faults || [] }, F.texts(msg.lang));
    renderAudience(document.getElementById("bac"), msg);
    return true;
  }

  // ---- the dealer's desk: bets, calls, cards by hand, undo, the banker leaving -----------------
  function desk(root) {
    let csrf = null, msg = null, player = null;
    // The desk is built once, in the box's language.
    const D = F.viewTexts("baccaratDesk", window.FaroLang || "en");
    const tx = function (key, fields) { return F.fill(D[key], fields); };
    const say = function (text, ok) {
      const m = document.getElementById("bac-message");
      m.textContent = text || "";
      m.className = "message " + (ok ? "ok" : "error");
    };

    async function send(body, done) {
      if (!csrf) {
        const r = await fetch("/api/session", { credentials: "same-origin" });
        if (r.status !== 200) { say(tx("loginFirst"), false); return false; }
        csrf = (await r.json()).csrf;
      }
      const response = await fetch("/api/command", {
        method: "POST", credentials: "same-origin",
        headers: { "content-type": "application/json", "x-csrf-token": csrf }, body: JSON.stringify(body),
      });
      let doc = {};
      try { doc = await response.json(); } catch (e) { doc = { error: tx("noJson") }; }
      if (response.status === 403 || response.status === 401) csrf = null;
      if (response.status !== 200) { say(doc.error || tx("refused", { status: response.status }), false); return false; }
      say(done || "", true);
      return true;
    }

    function button(label, cls, onClick) {
      const b = el("button", cls || "", label);
      b.type = "button";
      b.addEventListener("click", onClick);
      return b;
    }

    function input(id, type, placeholder, value) {
      const i = document.createElement("input");
      i.id = id; i.type = type; i.placeholder = placeholder || "";
      if (value !== undefined) i.value = value;
      i.setAttribute("aria-label", placeholder || id);
      return i;
    }

    const start = el("div", "row");
    const players = input("bac-players", "text", tx("playersExample"));
    const banker = input("bac-banker", "text", tx("banker"));
    const fund = input("bac-fund", "number", tx("fund"), "10");
    start.appendChild(players); start.appendChild(banker); start.appendChild(fund);
    start.appendChild(button(tx("startBank"), "primary", function () {
      const order = [], sides = {};
      players.value.split(",").map(function (x) { return x.trim(); }).filter(Boolean).forEach(function (item) {
        const parts = item.split(":");
        order.push(parts[0].trim());
        sides[parts[0].trim()] = (parts[1] || "right").trim();
      });
      send({ type: "start_bank", players: order, sides: sides, banker: banker.value.trim(),
             fund: parseInt(fund.value, 10) }, tx("bankOpen"));
    }));
    const live = el("div", "");
    root.appendChild(el("h2", "", tx("title")));
    const message = el("div", "message");
    message.id = "bac-message";
    message.setAttribute("role", "status");
    root.appendChild(message);
    root.appendChild(live);
    root.appendChild(el("h2", "", tx("newBank")));
    root.appendChild(start);

    // Inputs live outside the redrawn part, so a message arriving never wipes what the dealer types.
    const who = el("div", "row"), calls = el("div", "row"), pending = el("div", "row");
    const bet = el("div", "row"), cards = el("div", "row");
    const stake = input("bac-stake", "number", tx("stake"), "1");
    const cheval = document.createElement("input"); cheval.type = "checkbox"; cheval.id = "bac-cheval";
    const cut = document.createElement("input"); cut.type = "checkbox"; cut.id = "bac-cut";
    bet.appendChild(stake);
    bet.appendChild(el("label", "", tx("cheval"))); bet.appendChild(cheval);
    bet.appendChild(el("label", "", tx("cutToCover"))); bet.appendChild(cut);
    bet.appendChild(button(tx("bet"), "primary", function () {
      send({ type: "bank_bet", player: player, stake: parseInt(stake.value, 10), cheval: cheval.checked,
             cut: cut.checked }, tx("betTaken"));
    }));
    bet.appendChild(button(tx("banco"), "", function () { send({ type: "banco", player: player }, tx("bancoDone")); }));
    bet.appendChild(button(tx("leaveOn"), "", function () {
      send({ type: "leave_on", player: player, cheval: cheval.checked, cut: cut.checked }, tx("leftOn"));
    }));
    const card = input("bac-card", "text", tx("cardExample"));
    cards.appendChild(card);
    cards.appendChild(button(tx("enterCard"), "", function () {
      send({ type: "bank_confirm", card: card.value.trim() }, tx("cardEntered", { card: card.value.trim() }));
    }));
    cards.appendChild(button(tx("undo"), "danger", function () { send({ type: "bank_undo" }, tx("takenBack")); }));
    cards.appendChild(button(tx("bankerLeaves"), "danger", function () { send({ type: "bank_leave" }, tx("bankerLeft")); }));
    const table = el("div", "");
    [table, who, bet, calls, pending, cards].forEach(function (n) { live.appendChild(n); });

    function render() {
      if (!msg || !isBank(msg.state)) return;
      const s = msg.state, t = texts(msg.lang);
      clear(table);
      table.appendChild(el("div", "bac-waiting", s.ended ? t.ended : (t.waiting[s.waiting] || "")));
      const hands = el("div", "row");
      ["right", "left", "banker"].forEach(function (seat) {
        const shown = ((s.hands || {})[seat] || []).map(function (c) { return c || "▮"; }).join(" ");
        hands.appendChild(el("span", "", t[seat] + ": " + shown));
      });
      table.appendChild(hands);
      table.appendChild(el("div", "", t.fund + " " + s.fund +
        (s.cover_left !== null && s.cover_left !== undefined ? " · " + t.cover + " " + s.cover_left : "")));
      const names = s.players || [];
      if (names.indexOf(player) < 0) player = names.length ? names[0] : null;
      clear(who);
      names.forEach(function (p) {
        who.appendChild(button(F.displayName(p) + " (" + t[s.sides[p]] + ")", p === player ? "on" : "",
                               function () { player = p; render(); }));
      });
      clear(calls);
      const waiting = String(s.waiting || "");
      if (waiting.indexOf("call_") === 0) {
        const seat = waiting.slice(5);
        calls.appendChild(button(tx("seatCard", { seat: t[seat] }), "primary", function () {
          send({ type: "bank_call", seat: seat, draw: true }, tx("seatCardDone", { seat: t[seat] }));
        }));
        calls.appendChild(button(tx("seatStand", { seat: t[seat] }), "", function () {
          send({ type: "bank_call", seat: seat, draw: false }, tx("seatStands", { seat: t[seat] }));
        }));
      }
      clear(pending);
      if (s.pending) {
        // The public state names no candidate of a face-down card: the dealer's own view does.
        fetch("/api/dealer/state", { credentials: "same-origin" }).then(function (r) {
          return r.ok ? r.json() : null;
        }).then(function (mine) {
          clear(pending);
          const p = (mine && mine.pending) || s.pending;
          (p.candidates || []).forEach(function (c) {
            pending.appendChild(button(c + "?", "primary", function () { send({ type: "bank_confirm", card: c }, tx("confirmed", { card: c })); }));
          });
        }).catch(function () {});
      }
    }

    F.connect(function (m) {
      msg = m;
      document.body.classList.toggle("bac", isBank(m.state));
      live.classList.toggle("hidden", !isBank(m.state));
      render();
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    const root = document.getElementById("bac-desk");
    if (root) desk(root);
  });

  return { route: route, renderAudience: renderAudience, isBank: isBank, texts: texts };
})();
