"""The league as a picture for the notice board (`schocken liga --plot FILE.svg|png`): the standings, the
Deckel each person took over the evenings (over the games while no game has an evening), and the luck of
each against the odds (league/luck/table.py) with the spread fair dice would give.

matplotlib is an optional extra (`pip install 'schocken-cup[plot]'`): imported only here, when a picture is
asked for, and its absence is one line (``luck.no_matplotlib``)."""

from dataclasses import dataclass, field
from pathlib import Path

from schocken_host.errors import CommandError
from schocken_host.i18n import tr
from schocken_host.league.evenings import NO_DAY, evening_name, evening_tables
from schocken_host.league.luck.table import league_luck, rarity
from schocken_host.league.standings import standings

SUFFIXES = (".svg", ".png")

# Each game's evening (day and table), its seats' Deckel, oldest first.
_DECKEL = """
    SELECT g.game_id, g.day, g.place, p.name, s.deckel
    FROM games g JOIN seats s ON s.game_id = g.game_id JOIN players p ON p.id = s.player
    WHERE g.day IS NULL OR g.day BETWEEN ? AND ?
    ORDER BY g.day, g.started, g.game_id
"""


@dataclass
class Season:
    """What the picture shows: ``rows`` the standings, ``steps`` the evenings (day, table) in order, or the
    games' numbers while no game has an evening (``by_evening`` False), ``deckel`` per person the Deckel
    taken up to each step, ``luck`` per person (name, luck, spread, (lucky, one in N))."""
    games: int = 0
    rows: list = field(default_factory=list)
    steps: list = field(default_factory=list)
    deckel: dict = field(default_factory=dict)
    luck: list = field(default_factory=list)
    by_evening: bool = True


def season_of(league, first=None, last=None):
    """The Season of the league's games of the evenings between the days ``first`` and ``last`` (None, None:
    every game; an empty Season for no database)."""
    season = Season()
    if league is None:
        return season
    season.games, season.rows = standings(league, first, last)
    games = {}
    span = (first or NO_DAY, last or "9999-12-31")
    for game_id, day, place, name, deckel in league.read(_DECKEL, span):
        if day is None and (first or last):
            continue   # a game without an evening is in no season
        games.setdefault(game_id, (day, place, []))[2].append((name, deckel))
    season.by_evening = bool(games) and all(day for day, _, _ in games.values())
    tables = evening_tables(league, first, last) if season.by_evening else {}
    step_of = {}
    for n, (game_id, (day, place, _)) in enumerate(games.items()):
        label = (day, tables.get((day, place), place or "")) if season.by_evening else n + 1
        step_of[game_id] = step_of.get(label) if label in step_of else len(season.steps)
        if step_of[game_id] == len(season.steps):
            season.steps.append(label)
            step_of[label] = step_of[game_id]
    taken: dict[str, list] = {}
    for game_id, (_, _, seats) in games.items():
        for name, deckel in seats:
            taken.setdefault(name, [0] * len(season.steps))[step_of[game_id]] += deckel
    for name, per_step in taken.items():
        total, season.deckel[name] = 0, []
        for d in per_step:
            total += d
            season.deckel[name].append(total)
    season.luck = [(p.player, p.tally.luck, p.spread, tr_rare(p))
                   for p in league_luck(league, first, last).players if p.tally.throws]
    return season


def step_label(season, step, lang, lines=1):
    """The name of a step of the Deckel's course: an evening's, or a game's number."""
    return evening_name(*step, lang=lang, lines=lines) if season.by_evening else str(step)


def number_format(lang, digits=None):
    """A tick formatter writing numbers as the language does (German: a decimal comma)."""
    from matplotlib.ticker import FuncFormatter

    def text(x, _position):
        shown = ("%.*f" % (digits, x)) if digits is not None else ("%g" % x)
        return shown.replace(".", ",") if lang == "de" else shown
    return FuncFormatter(text)


def tr_rare(person):
    """(lucky, N) of "as lucky (unlucky) as 1 in N" for a PersonLuck."""
    return person.tally.luck >= 0, person.one_in


def figure_class():
    """matplotlib's Figure: its object interface keeps no global state (no pyplot), so the web page may
    draw in a thread; CommandError in one line when matplotlib is not installed."""
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ImportError:
        raise CommandError("luck.no_matplotlib") from None
    matplotlib.rcParams["svg.hashsalt"] = "schocken"   # the same season draws the same SVG
    matplotlib.rcParams["svg.fonttype"] = "none"       # words as text: found, read out, scaled by the browser
    return Figure


def check_target(path):
    """The picture's file, its kind known by its suffix (refused in one line before any work)."""
    path = Path(path)
    if path.suffix.lower() not in SUFFIXES:
        raise CommandError("luck.plot_suffix", path=path)
    return path


def draw(season, target, lang):
    """Writes the picture of ``season`` to ``target``: a path (its kind by its suffix), or (a binary file,
    "svg" or "png"): the web page hands a BytesIO."""
    figure = figure_class()(figsize=(9, 12), layout="constrained")
    table, over, luck = figure.subplots(3, 1)
    _standings(table, season, lang)
    _deckel(over, season, lang)
    _luck(luck, season, lang)
    stream, kind = target if isinstance(target, tuple) else (target, target.suffix.lower()[1:])
    figure.savefig(stream, format=kind, metadata={"Date": None} if kind == "svg" else None)


def draw_evenings(season, stream, lang, fontsize=20):
    """The Deckel over the evenings alone, for a screen (the web page's season view: half a TV's width and its
    height), its words ``fontsize`` pt in a picture 10 in wide (a 1080-line TV shows 1 pt at about 1.3 px),
    as SVG with its words as text; the evenings named on two lines (date, table)."""
    figure = figure_class()(figsize=(10, 9), layout="constrained")
    axes = figure.subplots()
    _deckel(axes, season, lang, labels=8, lines=2)
    for text in [axes.title, axes.xaxis.label, axes.yaxis.label, *axes.get_xticklabels(),
                 *axes.get_yticklabels(), *(axes.get_legend().get_texts() if axes.get_legend() else []),
                 *axes.texts]:
        text.set_fontsize(fontsize)
    axes.title.set_fontsize(fontsize * 1.15)
    axes.tick_params(labelsize=fontsize)
    figure.savefig(stream, format="svg", metadata={"Date": None})


def _empty(axes, lang):
    axes.text(0.5, 0.5, tr(lang, "luck.plot_empty"), ha="center", va="center", transform=axes.transAxes)
    axes.set_xticks([])
    axes.set_yticks([])


def _standings(axes, season, lang):
    axes.set_title(tr(lang, "luck.plot_standings"))
    if not season.rows:
        return _empty(axes, lang)
    names = [r.player for r in season.rows][::-1]      # best at the top
    rates = [r.lost_per_game for r in season.rows][::-1]
    bars = axes.barh(names, rates, color="#4c72b0")
    axes.bar_label(bars, labels=["%d/%d" % (r.games_lost, r.games) for r in season.rows][::-1], padding=3)
    axes.set_xlim(0, max(1.0, max(rates) * 1.2))
    axes.set_xlabel(tr(lang, "luck.plot_lost_axis"))
    axes.xaxis.set_major_formatter(number_format(lang))


def _deckel(axes, season, lang, labels=12, lines=1):
    """The Deckel each person took up to each evening (game); at most ``labels`` evenings named under the axis
    (spread over the season), each on ``lines`` lines."""
    axes.set_title(tr(lang, "luck.plot_deckel" if season.by_evening else "luck.plot_deckel_games"))
    if not season.steps:
        return _empty(axes, lang)
    steps = range(1, len(season.steps) + 1)
    markers = "osD^vP*X"      # each person his own mark too: the lines are told apart without their colour
    for n, name in enumerate(sorted(season.deckel)):
        axes.plot(steps, season.deckel[name], marker=markers[n % len(markers)], label=name)
    axes.set_xlabel(tr(lang, "luck.plot_evening" if season.by_evening else "luck.plot_game"))
    axes.set_ylabel(tr(lang, "luck.plot_total"))
    from matplotlib.ticker import MaxNLocator
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))    # Deckel come whole
    axes.yaxis.set_major_formatter(number_format(lang))
    every = max(1, -(-len(season.steps) // labels))
    shown = list(steps)[::every]
    axes.set_xticks(shown, [step_label(season, season.steps[i - 1], lang, lines) for i in shown],
                    rotation=20 if lines == 1 and season.by_evening else 0,
                    ha="right" if lines == 1 and season.by_evening else "center")
    axes.legend(fontsize="small", ncols=2)


def _luck(axes, season, lang):
    axes.set_title(tr(lang, "luck.plot_luck"), fontsize="medium")
    if not season.luck:
        return _empty(axes, lang)
    rows = season.luck[::-1]    # the luckiest at the top
    names = [row[0] for row in rows]
    for k, shade in ((2, "#e8e8e8"), (1, "#c8c8c8")):   # where fair dice put 95 % and 68 % of players
        axes.barh(names, [2 * k * row[2] for row in rows], left=[-k * row[2] for row in rows], color=shade)
    axes.scatter([row[1] for row in rows], names, zorder=3,
                 color=["#2a9d50" if row[1] >= 0 else "#c0392b" for row in rows])
    for name, x, _, (lucky, one_in) in rows:
        words = rarity(lang, lucky, one_in)
        number = "%+.1f" % x
        number = number if lang == "en" else number.replace(".", ",")
        axes.annotate("%s  %s" % (number, words), (x, name), xytext=(6, 4), textcoords="offset points",
                      fontsize="small")
    axes.axvline(0, color="black", linewidth=0.8)
    axes.set_xlabel(tr(lang, "luck.plot_luck_axis"))
    axes.xaxis.set_major_formatter(number_format(lang))
    low, high = axes.get_xlim()
    axes.set_xlim(low, high + 0.45 * (high - low))     # room for the words right of each point
