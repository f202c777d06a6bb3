"""A small SVG writer shared by the wiring diagrams (hardware/wiring_svg.py, hardware/breadboard_svg.py).

Text never gets cut: boxes are sized from their text with ``text_w``, a deliberately generous estimate of the
rendered width (no font metrics here, and a viewer may substitute the font), and tests/test_hardware.py checks
every text against its box with the same kind of estimate. Wires and pins carry ``data-net`` (and pins
``data-ref``/``data-pin``) so the tests can check the drawn connections, not just the words.
"""

# Average advance of Helvetica/Arial glyphs is about 0.5-0.55 em; 0.6 (0.65 bold) leaves room for capitals
# and a wider substitute font.
CHAR_EM = 0.6
CHAR_EM_BOLD = 0.65


def text_w(s, size, bold=False):
    return len(s) * size * (CHAR_EM_BOLD if bold else CHAR_EM)


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def wrap(s, max_chars):
    """Split s at spaces into lines of at most max_chars (a longer word stays whole)."""
    lines, cur = [], ""
    for word in s.split():
        if cur and len(cur) + 1 + len(word) > max_chars:
            lines.append(cur)
            cur = word
        else:
            cur = (cur + " " + word) if cur else word
    return lines + ([cur] if cur else [])


def _attrs(extra):
    return "".join(' %s="%s"' % (k, esc(str(v))) for k, v in (extra or {}).items())


class Svg:
    def __init__(self, w, h):
        self.w, self.h = w, h
        self.items = []

    def text(self, x, y, s, size=12, anchor="start", weight="normal", color="#000", rotate=False, attrs=None):
        rot = ' transform="rotate(-90 %d %d)"' % (x, y) if rotate else ""
        self.items.append('<text x="%d" y="%d" font-size="%g" text-anchor="%s" font-weight="%s" '
                          'fill="%s"%s%s>%s</text>'
                          % (x, y, size, anchor, weight, color, rot, _attrs(attrs), esc(s)))

    def line(self, x1, y1, x2, y2, color="#000", dash=False, width=1.5, net=None):
        extra = {"data-net": net} if net else None
        self.items.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="%.1f"%s%s/>'
                          % (x1, y1, x2, y2, color, width, ' stroke-dasharray="5,4"' if dash else "",
                             _attrs(extra)))

    def wire(self, points, color="#000", dash=False, width=1.5, net=None):
        """A wire through points: one <line> per segment, all on the same net."""
        for (x1, y1), (x2, y2) in zip(points, points[1:]):
            self.line(x1, y1, x2, y2, color, dash, width, net)

    def rect(self, x, y, w, h, fill="#fff", stroke="#000", dash=False, rx=0, attrs=None):
        self.items.append('<rect x="%d" y="%d" width="%d" height="%d"%s fill="%s" stroke="%s"%s%s/>'
                          % (x, y, w, h, ' rx="%d"' % rx if rx else "", fill, stroke,
                             ' stroke-dasharray="5,4"' if dash else "", _attrs(attrs)))

    def circle(self, cx, cy, r, fill="#000", stroke="none", attrs=None):
        self.items.append('<circle cx="%d" cy="%d" r="%g" fill="%s" stroke="%s"%s/>'
                          % (cx, cy, r, fill, stroke, _attrs(attrs)))

    def path(self, d, color="#000", width=1.5, dash=False, attrs=None):
        self.items.append('<path d="%s" fill="none" stroke="%s" stroke-width="%.1f" '
                          'stroke-linecap="round"%s%s/>'
                          % (d, color, width, ' stroke-dasharray="6,4"' if dash else "", _attrs(attrs)))

    def pin(self, x, y, ref, pin, net, color="#000"):
        """A part's pin (connection point): what the tests follow."""
        self.circle(x, y, 2.5, fill=color, attrs={"class": "pin", "data-ref": ref, "data-pin": pin,
                                                 "data-net": net})

    def box(self, x, y, label, fill="#fffbe6", size=11, min_w=60, dash=False):
        """A part box centred on y, as wide as its label needs; returns its right edge."""
        w = max(min_w, int(text_w(label, size)) + 16)
        self.rect(x, y - 11, w, 22, fill=fill, dash=dash)
        self.text(x + w // 2, y + 4, label, size, "middle")
        return x + w

    def render(self):
        return ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" '
                'font-family="Helvetica, Arial, sans-serif">\n'
                '<rect x="0" y="0" width="%d" height="%d" fill="#fff"/>\n%s\n'
                '</svg>\n' % (self.w, self.h, self.w, self.h, self.w, self.h, "\n".join(self.items)))
