"""The tournament (`schocken turnier`, docs/turnier.md): formats, the seeded draw, standings, table cards,
the director that collects every table's verified games, and the table's side that reports them."""
