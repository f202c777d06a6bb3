"""A round's table cards: one card per table with the round, the table's number, its players in seating
order and a QR code of the table's address at the director (``table_url``), which seats the table's referee:
`schocken play --turnier URL` takes its players from there and reports its games there (docs/turnier.md).
One HTML page, a card per printed page."""

import html

import segno


def table_url(base, key):
    """The address a table's referee reports to: the director's base URL and the table's enrolment key."""
    return "%s/tisch/%s" % (base.rstrip("/"), key)


def cards_html(title, round_no, kind, tables, keys, base, lang="de"):
    """``tables``: {table number: [names]}, ``keys``: {table number: key}. -> the page's HTML."""
    en = lang == "en"
    words = {"round": "Round" if en else "Runde", "table": "Table" if en else "Tisch",
             "final": "final" if en else "Finale",
             "how": ("Scan the code or type:" if en else "Code scannen oder eintippen:")}
    cards = []
    for table_no in sorted(tables):
        url = table_url(base, keys[table_no])
        svg = segno.make(url, error="m").svg_inline(scale=5)
        players = "".join("<li>%s</li>" % html.escape(n) for n in tables[table_no])
        cards.append(
            '<section class="card"><h1>%s</h1><h2>%s %d%s &middot; %s %d</h2><ol>%s</ol>'
            '<div class="qr">%s</div><p>%s</p><pre>schocken play --turnier %s</pre></section>'
            % (html.escape(title), words["round"], round_no,
               (" (%s)" % words["final"]) if kind == "final" else "", words["table"], table_no, players, svg,
               words["how"], html.escape(url)))
    return ("<!doctype html><html lang=\"%s\"><head><meta charset=\"utf-8\"><title>%s</title><style>"
            "body{font-family:sans-serif} .card{page-break-after:always;border:2px solid #333;padding:1em;"
            "margin:1em;max-width:30em} h1{font-size:1.4em;margin:0} h2{font-size:2em} li{font-size:1.5em}"
            "pre{white-space:pre-wrap;word-break:break-all}</style></head><body>%s</body></html>"
            % ("en" if en else "de", html.escape(title), "".join(cards)))
