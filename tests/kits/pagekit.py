"""Measuring the live page in Chromium (Playwright): the text people read, element by element, as the browser
laid it out. ``texts(pg, selector)`` lists every visible piece of text under ``selector`` with its computed
font size and whether anything cuts it: an ellipsis (text-overflow with the text wider than its box), a box
narrower than its text (scrollWidth over clientWidth where overflow hides it), a clipping ancestor or the
viewport that does not hold the whole line. A screenshot shows what a person sees; these figures say it of
every line, at every size, in a test."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"

# For each element with text of its own that is rendered: its text, font size (px), and what cuts it. The
# text's own boxes (a Range over its text nodes, one rectangle per line) must lie within the viewport and
# within every ancestor whose overflow is not visible.
TEXTS = """(selector) => {
  const out = [];
  const vw = document.documentElement.clientWidth, vh = document.documentElement.clientHeight;
  for (const root of document.querySelectorAll(selector)) {
    for (const el of [root, ...root.querySelectorAll("*")]) {
      const own = [...el.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim());
      if (!own.length) continue;
      const style = getComputedStyle(el);
      if (!el.getClientRects().length || style.visibility !== "visible") continue;
      if (el.closest("[hidden], .sr-only, details:not([open]) > :not(summary)")) continue;
      const cuts = [];
      const hides = style.overflowX !== "visible";
      if (hides && el.scrollWidth > el.clientWidth + 1)
        cuts.push("scrollWidth " + el.scrollWidth + " > clientWidth " + el.clientWidth);
      if (style.textOverflow === "ellipsis" && el.scrollWidth > el.clientWidth + 1) cuts.push("ellipsis");
      for (const node of own) {
        const range = document.createRange();
        range.selectNodeContents(node);
        const scrolling = (s) => s === "auto" || s === "scroll";   // a box that scrolls shows all in turn
        let inScrollerX = false;
        for (const r of range.getClientRects()) {
          if (r.width === 0) continue;
          for (let a = el; a && a !== document.body; a = a.parentElement) {
            const s = getComputedStyle(a);
            if (s.overflowX === "visible" && s.overflowY === "visible") continue;
            const b = a.getBoundingClientRect();
            inScrollerX = inScrollerX || scrolling(s.overflowX);
            if ((!scrolling(s.overflowX) && (r.left < b.left - 1 || r.right > b.right + 1)) ||
                (!scrolling(s.overflowY) && (r.top < b.top - 1 || r.bottom > b.bottom + 1)))
              cuts.push("clipped by " + (a.id ? "#" + a.id : a.tagName.toLowerCase()));
          }
          const pageScrolls = getComputedStyle(document.body).overflowY !== "hidden";
          if ((!inScrollerX && (r.left < -1 || r.right > vw + 1)) ||
              (!pageScrolls && (r.top < -1 || r.bottom > vh + 1)))
            cuts.push("outside the viewport " + JSON.stringify([r.left, r.top, r.right, r.bottom]));
        }
      }
      const cls = typeof el.className === "string" && el.className ? "." + el.className : "";
      out.push({text: own.map((n) => n.textContent.trim()).join(" "), size: parseFloat(style.fontSize),
                where: el.id ? "#" + el.id : el.tagName.toLowerCase() + cls, cuts: [...new Set(cuts)],
                svg: !!el.closest("svg")});
    }
  }
  return out;
}"""


# Each word of the SVG pictures under the selector: its size on the screen (px), its font size times the scale
# its picture is drawn at (the length of the first column of its transformation: rotated words count too).
SVG_TEXTS = """(selector) => [...document.querySelectorAll(selector + ' svg text')].map((t) => {
  const m = t.getScreenCTM();
  return {text: t.textContent, size: parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b)};
})"""


def svg_texts(pg, selector):
    """Every word of the SVG pictures under ``selector``: {"text", "size" (px on the screen)}."""
    return pg.evaluate(SVG_TEXTS, selector)


def texts(pg, selector):
    """Every rendered piece of text under ``selector``: {"text", "size" (px; in an SVG picture its own
    units), "where", "cuts": [why], "svg": in an SVG picture}."""
    return pg.evaluate(TEXTS, selector)


def cut(pg, selector):
    """The pieces of text under ``selector`` that something cuts (empty: every line is whole)."""
    return [t for t in texts(pg, selector) if t["cuts"]]


def smallest(pg, selector):
    """The smallest font size (px) of the text under ``selector`` (an SVG picture's words: svg_texts), with
    that text."""
    return min(((t["size"], t["text"]) for t in texts(pg, selector) if not t["svg"]), default=(None, None))


def axe(pg, tags=None):
    """axe-core's violations of the page as it is (node_modules/axe-core, pinned in package.json and its lock
    file): [(impact, id, help, [the first targets])]; every rule of axe (WCAG 2.x A and AA, contrast, and
    its best practices), or those of ``tags``."""
    if not pg.evaluate("typeof window.axe !== 'undefined'"):
        pg.add_script_tag(path=str(AXE))
    result = pg.evaluate("(tags) => axe.run(document, tags ? {runOnly: {type: 'tag', values: tags}} : {})",
                         list(tags) if tags else None)
    return [(v["impact"], v["id"], v["help"], [n["target"] for n in v["nodes"][:3]])
            for v in result["violations"]]


def serious(violations):
    """The violations a person meets: axe's "serious" and "critical"."""
    return [v for v in violations if v[0] in ("serious", "critical")]
