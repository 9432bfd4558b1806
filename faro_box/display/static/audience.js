"use strict";
// The audience page: draws every message of the live stream; it never writes anything.
(function () {
  const F = window.Faro;
  function draw(msg) {
    if (window.Baccarat && window.Baccarat.route(msg)) return;  // a bank of Baccarat Banque
    const s = msg.state, t = F.texts(msg.lang);
    F.renderStatus(document.getElementById("status"), s, t);
    F.renderBanners(document.getElementById("banners"), s, t, msg.lang);
    F.renderLayout(document.getElementById("layout"), s, t, {});
    F.renderCaseKeeper(document.getElementById("casekeeper"), s, t);
    F.renderLastTurn(document.getElementById("lastturn"), s, t);
    F.renderAnnouncements(document.getElementById("announcements"), msg.announcements, t);
    F.renderHistory(document.getElementById("history"), s, t);
    F.renderBalances(document.getElementById("balances"), s, t);
    F.dropUntilFits(document.querySelector(".turn-col"));
  }
  F.connect(draw);
  // A kiosk's window changes size (a rotated screen, a browser leaving full screen): fit anew.
  window.addEventListener("resize", function () { if (window.faroLastMessage) draw(window.faroLastMessage); });
})();
