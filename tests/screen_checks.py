"""What a page must hold on a kiosk screen, measured in the browser: nothing scrolls, the named
elements lie wholly inside the viewport (and inside the box that clips them), and no text is
smaller than the page's minimum size (a thirtieth of the largest 16:9 box the screen holds)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
# Every landscape kiosk size the box is shown on: the Pi's 7-inch touch display to 1080p.
KIOSKS = [(800, 480), (1280, 720), (1280, 800), (1366, 768), (1920, 1080)]


def min_type_px(width: int, height: int) -> float:
    return min(height, 0.5625 * width) / 30


def scroll_size(page: Any) -> dict[str, int]:
    return page.evaluate("""() => ({w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight,
                                    bw: document.body.scrollWidth, bh: document.body.scrollHeight,
                                    vw: innerWidth, vh: innerHeight})""")


def assert_no_scroll(page: Any) -> None:
    s = scroll_size(page)
    assert (s["w"], s["h"], s["bw"], s["bh"]) == (s["vw"], s["vh"], s["vw"], s["vh"]), s


def outside(page: Any, selector: str) -> list[str]:
    """The elements of ``selector`` not wholly inside the viewport or inside a box that clips them.

    Each is named with its text and its rectangle; an empty list when all are in view."""
    return page.evaluate("""(sel) => {
      const bad = [], W = innerWidth, H = innerHeight, eps = 1;
      const nodes = Array.from(document.querySelectorAll(sel));
      if (!nodes.length) return ["no element matches " + sel];
      nodes.forEach((e) => {
        const r = e.getBoundingClientRect();
        const name = sel + " '" + (e.textContent || "").slice(0, 30) + "' " +
          [r.left, r.top, r.right, r.bottom].map(Math.round).join(",");
        if (r.width === 0 || r.height === 0) { bad.push(name + " (not drawn)"); return; }
        if (r.left < -eps || r.top < -eps || r.right > W + eps || r.bottom > H + eps) { bad.push(name + " (off screen)"); return; }
        for (let p = e.parentElement; p; p = p.parentElement) {
          const st = getComputedStyle(p);
          if (st.overflowX === "visible" && st.overflowY === "visible") continue;
          const q = p.getBoundingClientRect();
          if (r.left < q.left - eps || r.top < q.top - eps || r.right > q.right + eps || r.bottom > q.bottom + eps) {
            bad.push(name + " (clipped by " + p.tagName + "." + p.className + ")"); return;
          }
        }
        if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== "visible" &&
            getComputedStyle(e).textOverflow !== "ellipsis") bad.push(name + " (its text is cut)");
      });
      return bad;
    }""", selector)


def small_text(page: Any, px: float) -> list[str]:
    """Every drawn text (HTML or SVG, as rendered) under ``px`` pixels, with its size."""
    return page.evaluate("""(px) => {
      const bad = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        if (!n.textContent.trim()) continue;
        const e = n.parentElement;
        const r = e.getBoundingClientRect();
        if (r.width === 0 || r.height === 0 || getComputedStyle(e).visibility === "hidden") continue;
        let size = parseFloat(getComputedStyle(e).fontSize);
        if (e instanceof SVGElement) size *= e.getScreenCTM().a;
        if (size < px - 0.5) bad.push(e.tagName + "." + e.getAttribute("class") + " '" + n.textContent.trim().slice(0, 30) +
                                      "' " + size.toFixed(1) + " px");
      }
      return bad;
    }""", px)


def shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name))


def fits(page: Any, size: tuple[int, int], must_see: list[str]) -> None:
    """The page at this screen size: no scrolling, every ``must_see`` selector inside the screen,
    no text smaller than the size allows."""
    assert_no_scroll(page)
    for selector in must_see:
        assert outside(page, selector) == [], selector
    assert small_text(page, min_type_px(*size)) == []
