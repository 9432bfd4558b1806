"use strict";
// The live stream, kept alive. A browser's EventSource gives up for good when the server
// answers with an error (503: too many viewers) and retries a dead server at a fixed pace; here
// every failure closes the stream and opens a new one after 1, 2, 4 … s (at most 20 s, jittered
// so a roomful of phones does not come back at once), and meanwhile the newest state is fetched
// once, so a page never stands empty. Each message holds the whole state.
window.FaroLive = (function () {
  const FIRST_MS = 1000, MAX_MS = 20000;

  function connect(url, onMessage, onStatus) {
    let source = null, timer = null, delay = FIRST_MS, closed = false;

    function deliver(msg) {
      if (msg && typeof msg.seq === "number" && msg.state) onMessage(msg);
    }

    function fill() {
      fetch("/api/live", { cache: "no-store" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (doc) { if (source === null || source.readyState !== EventSource.OPEN) deliver(doc); })
        .catch(function () { /* the server is away: the next attempt tries again */ });
    }

    function retry() {
      const wait = delay * (0.75 + Math.random() / 2);
      delay = Math.min(MAX_MS, delay * 2);
      timer = setTimeout(open, wait);
    }

    function open() {
      timer = null;
      if (closed) return;
      source = new EventSource(url);
      source.addEventListener("state", function (e) {
        delay = FIRST_MS;
        deliver(JSON.parse(e.data));
      });
      source.onopen = function () { onStatus(true); };
      source.onerror = function () {
        source.close();
        onStatus(false);
        fill();
        retry();
      };
    }

    open();
    return {
      close: function () {
        closed = true;
        if (timer !== null) clearTimeout(timer);
        if (source !== null) source.close();
      },
    };
  }

  // The connection dot, and beside it a word while the page is reconnecting.
  function show(dot, up, reconnecting) {
    if (!dot) return;
    dot.className = "conn " + (up ? "up" : "down");
    dot.title = up ? "live" : reconnecting;
    let note = document.getElementById("conn-note");
    if (!note) {
      note = document.createElement("span");
      note.id = "conn-note";
      note.className = "conn-note";
      note.setAttribute("role", "status");
      dot.insertAdjacentElement("afterend", note);
    }
    note.textContent = up ? "" : reconnecting;
    note.hidden = up;
    document.body.dataset.live = up ? "up" : "reconnecting";
  }

  return { connect: connect, show: show };
})();
