"use strict";
// Drawing shared by the audience and dealer pages. Every text from the server goes through
// textContent (never innerHTML), so a player's name can never become markup.
window.Faro = (function () {
  const SVG = "http://www.w3.org/2000/svg";
  const TOP = ["K", "Q", "J", "10", "9", "8"];
  const BOTTOM = ["A", "2", "3", "4", "5", "6"];
  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  const COLOURS = ["#e6b422", "#4fa3e0", "#e05a4f", "#8fd16a", "#c77ddb", "#f08c3a", "#41c7b9",
                   "#f2f2f2", "#e87bb0", "#a0a0ff"];
  const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };

  // Every view's texts, served by the box from its one catalogue (/texts.js): {view: {lang: {key: text}}}.
  const CATALOGUE = window.FaroTexts || {};

  // The texts of one view in one language; the language goes along for counts and amounts.
  function viewTexts(view, lang) {
    const table = CATALOGUE[view] || {};
    const chosen = table[lang] ? lang : "en";
    document.documentElement.lang = chosen;
    return Object.assign({ _lang: chosen }, table[chosen] || {});
  }

  function texts(lang) { return viewTexts("faro", lang); }

  // A text's {fields} filled in.
  function fill(text, fields) {
    const values = fields || {};
    return String(text).replace(/\{(\w+)\}/g, function (whole, name) {
      return name in values ? String(values[name]) : whole;
    });
  }

  // A text with a count: its form by the language's CLDR plural category (Intl.PluralRules).
  function count(t, key, n, fields) {
    const entry = t[key];
    const forms = (entry && entry.plural) || { other: String(entry) };
    const category = new Intl.PluralRules(t._lang || "en").select(n);
    return fill(forms[category] || forms.other, Object.assign({ n: n }, fields || {}));
  }

  function el(tag, cls, text) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function svg(tag, attrs) {
    const node = document.createElementNS(SVG, tag);
    for (const k in attrs) node.setAttribute(k, attrs[k]);
    return node;
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  function displayName(name) {
    name = String(name);
    return name === name.toLowerCase() ? name.charAt(0).toUpperCase() + name.slice(1) : name;
  }

  function playerColour(state, player) {
    const i = (state.players || []).indexOf(player);
    return COLOURS[(i < 0 ? 0 : i) % COLOURS.length];
  }

  // An amount with its sign, written as the terminal and the announcements write it
  // (announce.signed_amount): "+2", "\u22121\u00bd" in English, "\u22121,5" in Russian and French.
  function amount(value) {
    const v = Number(value);
    const sign = v > 0 ? "+" : v < 0 ? "\u2212" : "";
    const a = Math.abs(v);
    if (Number.isInteger(a)) return sign + String(a);
    const lang = document.documentElement.lang || "en";
    const whole = Math.floor(a);
    if (lang === "en" && a - whole === 0.5) return sign + (whole ? String(whole) : "") + "\u00bd";
    const text = a.toFixed(2).replace(/0+$/, "").replace(/\.$/, "");
    return sign + (lang === "en" ? text : text.replace(".", ","));
  }

  function parseCard(card) {
    const text = String(card);
    return { rank: text.slice(0, -1), suit: text.slice(-1) };
  }

  function cardFace(card, label, cls) {
    const box = el("div", "cardface " + (cls || ""));
    if (!card) { box.classList.add("blank"); box.appendChild(el("div", "rank", "?")); }
    else {
      const c = parseCard(card);
      if (c.suit === "H" || c.suit === "D") box.classList.add("red");
      box.appendChild(el("div", "rank", c.rank));
      box.appendChild(el("div", "suit", SUITS[c.suit] || c.suit));
    }
    if (label) box.appendChild(el("div", "label", label));
    return box;
  }

  // Each bet is drawn where a player would put the chips: on its rank(s), or in the strip.
  function chip(state, bet, extra) {
    const c = el("span", "chip" + (bet.copper ? " copper" : "") + (extra ? " " + extra : ""));
    c.style.setProperty("--chip", playerColour(state, bet.player));
    c.textContent = displayName(bet.player).charAt(0) + "\u2009" + bet.stake;
    c.title = displayName(bet.player) + ": " + bet.kind + " " + (bet.ranks || []).join("-") +
      (bet.order ? " " + bet.order.join("-") : "") + " (" + bet.stake + ")" + (bet.copper ? " coppered" : "");
    if (bet.barred) c.classList.add("barred");
    c.dataset.bet = bet.id;
    return c;
  }

  function renderLayout(root, state, t, opts) {
    clear(root);
    const selected = opts.selected || [];
    const caseCounts = state["case"] || {};
    const cells = {};
    const grid = el("div", "layout-grid");
    function cell(rank, cls) {
      const box = el("div", "lcard " + cls);
      box.dataset.rank = rank;
      const n = caseCounts[rank];
      if (n === 0) box.classList.add("dead");
      if (selected.indexOf(rank) >= 0) {
        box.classList.add("selected");
        if (opts.showOrder) box.appendChild(el("span", "order", selected.indexOf(rank) + 1));
      }
      box.appendChild(el("div", "lrank", rank));
      if (n !== undefined) box.appendChild(el("div", "lcount", n));
      const chips = el("div", "chips");
      box.appendChild(chips);
      cells[rank] = chips;
      if (opts.onTap) {
        box.setAttribute("role", "button");
        box.tabIndex = 0;
        box.addEventListener("click", function () { opts.onTap(rank); });
      }
      grid.appendChild(box);
    }
    TOP.forEach(function (r, i) { cell(r, "top c" + i); });
    BOTTOM.forEach(function (r, i) { cell(r, "bottom c" + i); });
    cell("7", "seven");
    root.appendChild(grid);
    const strip = el("div", "strip");
    const boxes = {};
    ["high", "odd", "even", "call"].forEach(function (k) {
      const b = el("div", "stripbox " + k);
      b.dataset.kind = k;
      b.appendChild(el("span", "striplabel", t[k]));
      const chips = el("span", "chips");
      b.appendChild(chips);
      boxes[k] = chips;
      if (opts.onKind) {
        b.setAttribute("role", "button");
        b.tabIndex = 0;
        b.addEventListener("click", function () { opts.onKind(k); });
      }
      strip.appendChild(b);
    });
    root.appendChild(strip);
    (state.open_bets || []).forEach(function (bet) {
      if (bet.kind === "rank" && cells[bet.ranks[0]]) cells[bet.ranks[0]].appendChild(chip(state, bet));
      else if (bet.kind === "group" || bet.kind === "win_lose") {
        (bet.ranks || []).forEach(function (r, i) {
          const mark = bet.kind === "win_lose" ? (i === 0 ? "wl-lose" : "wl-win") : "group";
          if (cells[r]) cells[r].appendChild(chip(state, bet, mark));
        });
      } else if (boxes[bet.kind]) boxes[bet.kind].appendChild(chip(state, bet));
    });
  }

  // The case-keeper from the bead model: the outer frame at the left, millimetres to the right.
  function renderCaseKeeper(root, state, t) {
    clear(root);
    root.appendChild(el("h2", "", t.caseKeeper));
    const beads = state.beads || {};
    let rod = 120, bead = 10;
    RANKS.forEach(function (r) {
      (beads[r] || []).forEach(function (p) { rod = Math.max(rod, p + bead); });
    });
    const scale = 3.2, row = 34, left = 54, width = left + rod * scale + 120;
    const root_svg = svg("svg", { viewBox: "0 0 " + width + " " + (row * 13 + 8), class: "beads",
                                  role: "img", "aria-label": t.caseKeeper });
    root_svg.appendChild(svg("rect", { x: left - 6, y: 2, width: 6, height: row * 13 + 4, class: "frame" }));
    RANKS.forEach(function (r, i) {
      const y = 6 + i * row + row / 2;
      const label = svg("text", { x: left - 16, y: y + 9, class: "rodlabel", "text-anchor": "end" });
      label.textContent = r;
      root_svg.appendChild(label);
      root_svg.appendChild(svg("line", { x1: left, y1: y, x2: left + rod * scale, y2: y, class: "rod" }));
      const positions = beads[r] || [];
      positions.forEach(function (p, b) {
        const home = Math.abs(p - (rod - (4 - b) * bead)) < 0.01;
        root_svg.appendChild(svg("circle", { cx: left + (p + bead / 2) * scale, cy: y,
                                             r: bead / 2 * scale - 1, class: home ? "bead home" : "bead out" }));
      });
      const n = (state["case"] || {})[r];
      if (n !== undefined) {
        const count = svg("text", { x: left + rod * scale + 24, y: y + 9, class: "rodcount" });
        count.textContent = n;
        root_svg.appendChild(count);
      }
    });
    root.appendChild(root_svg);
  }

  function renderStatus(root, state, t) {
    clear(root);
    if (state.deal === null || state.deal === undefined) { root.appendChild(el("span", "", t.noDeal)); return; }
    root.appendChild(el("span", "deal", t.deal + " " + state.deal));
    if (state.finished) root.appendChild(el("span", "", t.finished));
    else if (state.next_turn) root.appendChild(el("span", "turnno", t.turn + " " + state.next_turn + " " + t.of + " 25"));
    else if (state.next_role === "soda") root.appendChild(el("span", "", t.soda));
    const left = 52 - (state.exposed || []).length;
    root.appendChild(el("span", "boxcount", count(t, "cardsInBox", left)));
  }

  function renderBanners(root, state, t) {
    clear(root);
    if (state.pending) {
      root.appendChild(el("div", "banner pending", t.pending.replace("{n}", state.pending.index + 1)));
    }
    (state.faults || []).forEach(function (f) {
      root.appendChild(el("div", "banner fault", t.faults + ": " + f.device + ": " + f.message));
    });
  }

  function renderLastTurn(root, state, t) {
    clear(root);
    const exposed = state.exposed || [];
    const last = state.last_turn;
    const row = el("div", "cards");
    if (last) {
      row.appendChild(cardFace(last.loser, t.loser, "loser"));
      row.appendChild(cardFace(last.winner, t.winner, "winner"));
      root.appendChild(el("div", "turntitle", t.turn + " " + last.turn));
    } else if (exposed.length) {
      row.appendChild(cardFace(exposed[0], t.soda, "soda"));
      root.appendChild(el("div", "turntitle", t.soda));
    } else {
      root.appendChild(el("div", "turntitle muted", t.noTurn));
    }
    root.appendChild(row);
  }

  function renderAnnouncements(root, list, t) {
    clear(root);
    const items = (list || []).slice(-4).reverse();
    items.forEach(function (a, i) { root.appendChild(el("p", i === 0 ? "latest" : "older", a.text)); });
  }

  function renderBalances(root, state, t) {
    clear(root);
    root.appendChild(el("h2", "", t.balances));
    const table = el("table", "baltable");
    const bal = state.balances || {};
    (state.players || []).forEach(function (p) {
      const tr = el("tr");
      const name = el("td", "name");
      const sw = el("span", "swatch");
      sw.style.setProperty("--chip", playerColour(state, p));
      name.appendChild(sw);
      name.appendChild(document.createTextNode(displayName(p)));
      tr.appendChild(name);
      const v = Number(bal[p] || 0);
      tr.appendChild(el("td", "amount " + (v > 0 ? "up" : v < 0 ? "down" : ""), amount(v)));
      table.appendChild(tr);
    });
    if ("banker" in bal) {
      const tr = el("tr", "bankrow");
      tr.appendChild(el("td", "name", t.bank));
      const v = Number(bal.banker);
      tr.appendChild(el("td", "amount " + (v > 0 ? "up" : v < 0 ? "down" : ""), amount(v)));
      table.appendChild(tr);
    }
    root.appendChild(table);
  }

  function renderHistory(root, state, t) {
    clear(root);
    const past = (state.history || []).slice(-5).reverse();
    if (!past.length) return;
    root.appendChild(el("h2", "", t.history));
    past.forEach(function (d) {
      const parts = [];
      const b = d.balances || {};
      Object.keys(b).forEach(function (p) {
        parts.push((p === "banker" ? t.bank : displayName(p)) + " " + amount(b[p]));
      });
      root.appendChild(el("p", "pastdeal", t.deal + " " + (d.number !== undefined ? d.number : d.deal) + ": " + parts.join(", ")));
    });
  }

  // The live stream: EventSource reconnects by itself; each message holds the whole state.
  function connect(onMessage) {
    const dot = document.getElementById("conn");
    let lastSeq = -1;
    const source = new EventSource("/api/events");
    // Draw the newest state once per burst of messages: a burst of events never queues up
    // redraws behind the screen.
    let waiting = null;
    function draw() {
      const msg = waiting;
      waiting = null;
      if (!msg) return;
      window.faroLastMessage = msg;
      const t0 = performance.now();
      onMessage(msg);
      window.faroRenderMs = performance.now() - t0;  // read by the latency benchmark
      document.body.dataset.seq = String(msg.seq);
    }
    source.addEventListener("state", function (e) {
      const msg = JSON.parse(e.data);
      if (msg.seq < lastSeq) return;
      lastSeq = msg.seq;
      const idle = waiting === null;
      waiting = msg;
      if (idle) setTimeout(draw, 0);  // after the messages already queued, not a frame later
    });
    source.onopen = function () { if (dot) dot.className = "conn up"; };
    source.onerror = function () { if (dot) dot.className = "conn down"; lastSeq = -1; };
    return source;
  }

  return { texts: texts, viewTexts: viewTexts, count: count, fill: fill, el: el, clear: clear, connect: connect, displayName: displayName, amount: amount,
           renderLayout: renderLayout, renderCaseKeeper: renderCaseKeeper, renderStatus: renderStatus,
           renderBanners: renderBanners, renderLastTurn: renderLastTurn, renderAnnouncements: renderAnnouncements,
           renderBalances: renderBalances, renderHistory: renderHistory, cardFace: cardFace,
           playerColour: playerColour, RANKS: RANKS };
})();
