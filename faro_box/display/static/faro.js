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
    if (label) { box.classList.add("labelled"); box.appendChild(el("div", "label", label)); }
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

  // Where each rank's card lies on the layout, as fractions of the grid (column centre, row centre).
  function spot(rank) {
    const top = TOP.indexOf(rank), bottom = BOTTOM.indexOf(rank);
    const col = rank === "7" ? 6 : top >= 0 ? top : bottom;
    return { x: (col + 0.5) / 7, y: rank === "7" ? 0.5 : top >= 0 ? 0.25 : 0.75 };
  }

  // A group is one bet: one chip where its cards meet (the centre of its ranks), naming them.
  function groupChip(state, bet) {
    const c = chip(state, bet, "group");
    c.textContent = "";
    c.appendChild(el("span", "stake", displayName(bet.player).charAt(0) + "\u2009" + bet.stake));
    c.appendChild(el("span", "ranks", (bet.ranks || []).join("\u00b7")));
    const spots = (bet.ranks || []).map(spot);
    const x = spots.reduce(function (a, p) { return a + p.x; }, 0) / (spots.length || 1);
    const y = spots.reduce(function (a, p) { return a + p.y; }, 0) / (spots.length || 1);
    c.style.left = (100 * x).toFixed(2) + "%";
    c.style.top = (100 * y).toFixed(2) + "%";
    return c;
  }

  // Chips that do not fit their place on a small screen become one "+n" chip, never a scrollbar.
  // All boxes are measured in one pass and changed in the next: one layout, not one per chip.
  function overflows(box) { return box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1; }
  function collapseOverflow(boxes) {
    const cuts = boxes.map(function (box) {
      if (!overflows(box)) return -1;
      const edge = box.getBoundingClientRect();
      const chips = Array.from(box.children);
      for (let i = 0; i < chips.length; i++) {
        const r = chips[i].getBoundingClientRect();
        if (r.bottom > edge.bottom + 1 || r.right > edge.right + 1) return Math.max(0, i - 1);  // a slot for "+n"
      }
      return Math.max(0, chips.length - 1);
    });
    const mores = [];
    boxes.forEach(function (box, b) {
      if (cuts[b] < 0) return;
      const chips = Array.from(box.children);
      chips.slice(cuts[b]).forEach(function (c) { box.removeChild(c); });
      const more = el("span", "chip more", "+" + (chips.length - cuts[b]));
      more.dataset.hidden = String(chips.length - cuts[b]);
      box.appendChild(more);
      mores.push(more);
    });
    // The "+n" chip may itself be wider than the chip it replaced: give back one more, rarely twice.
    for (let pass = 0; pass < 3 && mores.length; pass++) {
      const still = mores.filter(function (m) { return overflows(m.parentElement) && m.previousElementSibling; });
      still.forEach(function (m) {
        m.parentElement.removeChild(m.previousElementSibling);
        m.dataset.hidden = String(Number(m.dataset.hidden) + 1);
        m.textContent = "+" + m.dataset.hidden;
      });
      if (!still.length) break;
    }
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
    const groups = el("div", "groups");
    grid.appendChild(groups);
    (state.open_bets || []).forEach(function (bet) {
      if (bet.kind === "rank" && cells[bet.ranks[0]]) cells[bet.ranks[0]].appendChild(chip(state, bet));
      else if (bet.kind === "group") groups.appendChild(groupChip(state, bet));
      else if (bet.kind === "win_lose") {
        (bet.ranks || []).forEach(function (r, i) {
          if (cells[r]) cells[r].appendChild(chip(state, bet, i === 0 ? "wl-lose" : "wl-win"));
        });
      } else if (boxes[bet.kind]) boxes[bet.kind].appendChild(chip(state, bet));
    });
    collapseOverflow(Object.keys(cells).map(function (r) { return cells[r]; })
      .concat(Object.keys(boxes).map(function (k) { return boxes[k]; })));
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
    const scale = 3.2, row = 32, left = 68, width = left + rod * scale + 70;
    const root_svg = svg("svg", { viewBox: "0 0 " + width + " " + (row * 13 + 8), class: "beads",
                                  preserveAspectRatio: "xMidYMin meet", role: "img", "aria-label": t.caseKeeper });
    root_svg.appendChild(svg("rect", { x: left - 6, y: 2, width: 6, height: row * 13 + 4, class: "frame" }));
    RANKS.forEach(function (r, i) {
      const y = 6 + i * row + row / 2;
      const label = svg("text", { x: left - 12, y: y + 13, class: "rodlabel", "text-anchor": "end" });
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
        const count = svg("text", { x: left + rod * scale + 14, y: y + 13, class: "rodcount" });
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
    items.forEach(function (a, i) { root.appendChild(el("p", i === 0 ? "latest" : "older droppable", a.text)); });
  }

  // The last turn's change beside each balance: every settlement of the turn stays in view,
  // however long the spoken announcement grows.
  function lastChanges(state) {
    const out = {};
    const last = state.last_turn;
    ((last && last.settlements) || []).forEach(function (x) {
      const v = Number(x.amount || 0);
      out[x.player] = (out[x.player] || 0) + v;
      out.banker = (out.banker || 0) - v;
    });
    return out;
  }

  function balanceRow(cls, name, swatch, value, change) {
    const row = el("div", "balrow " + cls);
    const who = el("span", "name");
    if (swatch) {
      const sw = el("span", "swatch");
      sw.style.setProperty("--chip", swatch);
      who.appendChild(sw);
    }
    who.appendChild(document.createTextNode(name));
    who.title = name;
    row.appendChild(who);
    const d = el("span", "change", change === undefined ? "" : amount(change));
    if (change !== undefined) d.classList.add(change > 0 ? "up" : change < 0 ? "down" : "even");
    row.appendChild(d);
    row.appendChild(el("span", "amount " + (value > 0 ? "up" : value < 0 ? "down" : ""), amount(value)));
    return row;
  }

  function renderBalances(root, state, t) {
    clear(root);
    root.appendChild(el("h2", "", t.balances));
    const table = el("div", "baltable");
    const bal = state.balances || {};
    const changes = lastChanges(state);
    const players = state.players || [];
    players.forEach(function (p) {
      table.appendChild(balanceRow("", displayName(p), playerColour(state, p), Number(bal[p] || 0), changes[p]));
    });
    if ("banker" in bal) table.appendChild(balanceRow("bankrow", t.bank, null, Number(bal.banker), changes.banker));
    root.appendChild(table);
    fitBalances(root, table);
  }

  // The largest type at which every balance fits its place; two columns before the smallest.
  // The size found last time is tried first (a deal keeps its players and the screen its size),
  // so a redraw mostly costs one measurement.
  const BALANCE_FITS = ["fit-xl", "fit-l", "fit-m", "fit-s cols2", "fit-xs cols2"];
  function fitBalances(root, table) {
    const rows = table.children.length;
    const base = table.className;
    function fits(i) {
      table.className = base + " " + BALANCE_FITS[i];
      const cols = table.classList.contains("cols2") ? 2 : 1;
      table.style.gridTemplateRows = "repeat(" + Math.ceil(rows / cols) + ", auto)";
      return root.scrollHeight <= root.clientHeight + 1 && table.scrollWidth <= table.clientWidth + 1 &&
        names.every(function (n) { return n.scrollWidth <= n.clientWidth + 1; });
    }
    const names = Array.from(table.querySelectorAll(".balrow .name"));
    const key = [rows, innerWidth, innerHeight, root.clientHeight].join(" ");
    const last = fitBalances.memory[base];
    if (!(last && last.key === key && fits(last.index))) {
      let i = 0;
      while (i < BALANCE_FITS.length - 1 && !fits(i)) i += 1;
      if (i === BALANCE_FITS.length - 1) fits(i);
      fitBalances.memory[base] = { key: key, index: i };
    }
    shortenNames(names);
  }
  fitBalances.memory = {};

  // Names too long at the smallest type are shortened so that no two players look alike: a
  // trailing ellipsis would show "Margaret Ashworth" and "Margaret Ashby" both as "Margaret A…".
  // A name keeps its first letters and then, after "…", the letters from where it parts from the
  // name that shares the most of its beginning; where two still look alike, each keeps one more
  // first letter ("Mar…wo…", "Max…wo…") until none do.
  function shortenNames(nodes) {
    const full = nodes.map(function (n) { return n.lastChild ? n.lastChild.textContent : ""; });
    function shared(a, b) { let k = 0; while (k < a.length && k < b.length && a[k] === b[k]) k += 1; return k; }
    const parts = full.map(function (name, i) {
      let k = 0;
      full.forEach(function (other, j) { if (j !== i) k = Math.max(k, shared(name, other)); });
      return k;
    });
    const heads = full.map(function () { return 2; });
    const cut = full.map(function () { return false; });
    function shorten(i) {
      const node = nodes[i], text = node.lastChild, name = full[i], p = parts[i], head = Math.min(heads[i], p);
      const fitsNow = function (shown) { text.textContent = shown; return node.scrollWidth <= node.clientWidth + 1; };
      if (fitsNow(name)) return;
      cut[i] = true;
      if (p <= head) {               // the beginning, cut at the end, tells it apart
        for (let n = name.length - 1; n > p; n--) if (fitsNow(name.slice(0, n) + "\u2026")) return;
        fitsNow(name.slice(0, p + 1) + "\u2026");
        return;
      }
      const rest = name.slice(p);
      for (let n = rest.length; n > 1; n--) {
        if (fitsNow(name.slice(0, head) + "\u2026" + rest.slice(0, n) + (n < rest.length ? "\u2026" : ""))) return;
      }
      fitsNow(name.slice(0, head) + "\u2026" + rest.slice(0, 1) + (rest.length > 1 ? "\u2026" : ""));
    }
    nodes.forEach(function (node, i) {
      if (node.lastChild && node.scrollWidth > node.clientWidth + 1) shorten(i);
    });
    for (let round = 0; round < 40 && cut.some(Boolean); round++) {
      const seen = {};
      nodes.forEach(function (node, i) { const t = node.lastChild.textContent; (seen[t] = seen[t] || []).push(i); });
      const alike = Object.keys(seen).filter(function (t) { return seen[t].length > 1; });
      if (!alike.length) return;
      alike.forEach(function (t) {
        seen[t].forEach(function (i) { if (cut[i] && heads[i] < parts[i]) { heads[i] += 1; shorten(i); } });
      });
    }
  }

  // On a kiosk nothing scrolls: the older lines of a column go first, one whole line at a time.
  function dropUntilFits(column) {
    if (!column) return;
    let over = column.scrollHeight - column.clientHeight;
    if (over <= 1) return;
    // Measure every droppable line once, then remove from the last until the excess is gone.
    const droppable = Array.from(column.querySelectorAll(".droppable"));
    const heights = droppable.map(function (d) {
      const st = getComputedStyle(d);
      return d.getBoundingClientRect().height + parseFloat(st.marginTop) + parseFloat(st.marginBottom);
    });
    for (let i = droppable.length - 1; i >= 0 && over > 1; i--) {
      droppable[i].remove();
      over -= heights[i];
    }
    column.querySelectorAll(".history").forEach(function (h) {
      if (!h.querySelector(".pastdeal")) clear(h);
    });
    // Still too long: the latest announcement keeps fewer lines (it ends in an ellipsis).
    const latest = column.querySelector(".latest");
    for (let lines = 3; latest && lines >= 1 && column.scrollHeight > column.clientHeight + 1; lines--) {
      latest.style.setProperty("-webkit-line-clamp", String(lines));
    }
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
      root.appendChild(el("p", "pastdeal droppable", t.deal + " " + (d.number !== undefined ? d.number : d.deal) + ": " + parts.join(", ")));
    });
  }

  // The live stream (live.js keeps it alive); each message holds the whole state. One stream a
  // page, however many views on it listen (the dealer's page has the faro and the bank's desks):
  // each stream takes one of an address's few viewer places.
  const listeners = [];
  let stream = null, newest = null;
  function connect(onMessage) {
    listeners.push(onMessage);
    if (stream !== null) {
      if (newest) setTimeout(function () { onMessage(newest); }, 0);
      return stream;
    }
    const dot = document.getElementById("conn");
    let lastSeq = -1, lang = "en";
    // Draw the newest state once per burst of messages: a burst of events never queues up
    // redraws behind the screen.
    let waiting = null;
    function draw() {
      const msg = waiting;
      waiting = null;
      if (!msg) return;
      newest = msg;
      window.faroLastMessage = msg;
      const t0 = performance.now();
      listeners.forEach(function (listener) { listener(msg); });
      window.faroRenderMs = performance.now() - t0;  // read by the latency benchmark
      document.body.dataset.seq = String(msg.seq);
    }
    stream = window.FaroLive.connect("/api/events", function (msg) {
      if (msg.seq < lastSeq) return;
      lastSeq = msg.seq;
      lang = msg.lang || lang;
      const idle = waiting === null;
      waiting = msg;
      if (idle) setTimeout(draw, 0);  // after the messages already queued, not a frame later
    }, function (up) {
      if (!up) lastSeq = -1;  // a restarted server counts again from its journal
      window.FaroLive.show(dot, up, texts(lang).reconnect);
    });
    return stream;
  }

  return { texts: texts, viewTexts: viewTexts, count: count, fill: fill, el: el, clear: clear, connect: connect, displayName: displayName, amount: amount,
           renderLayout: renderLayout, renderCaseKeeper: renderCaseKeeper, renderStatus: renderStatus,
           renderBanners: renderBanners, renderLastTurn: renderLastTurn, renderAnnouncements: renderAnnouncements,
           renderBalances: renderBalances, renderHistory: renderHistory, cardFace: cardFace,
           playerColour: playerColour, dropUntilFits: dropUntilFits, balanceRow: balanceRow, fitBalances: fitBalances,
           RANKS: RANKS };
})();
