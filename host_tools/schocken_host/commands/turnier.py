"""`schocken turnier`: a tournament directed from one machine, every table on its own (docs/turnier.md). Its
jobs: `anlegen DIR` (name, --format, --seed, players), `anmelden DIR NAME...` (or --datei), `auslosen DIR`
(the next round, its table cards), `karten DIR`, `leiten DIR` (the director's server: the tables report,
the big screen), `stand DIR`, `entscheiden DIR GAME zaehlen|verwerfen`, `nachzaehlen DIR`, `senden` (a
table's games that wait for the network) and `formate`. Each job also answers to its English name."""

import argparse
import asyncio
import json
import signal
import sys
from pathlib import Path

from schocken_host.commands import Command, Commands
from schocken_host.errors import CommandError
from schocken_host.i18n import tr
from schocken_host.input_checks import web_address
from schocken_host.tournament.formats import PRESETS, format_of

PORT = 8470
MAX_NAME = 24       # a cup shows 24 characters of a name; the log keeps what the table was given


def check_player(name, where):
    """A player's name as the draw and `schocken play --names` take it: not empty, no control character, no
    comma or semicolon (the separators of --names and of a players' file), 24 characters at most."""
    name = name.strip() if isinstance(name, str) else ""
    if (not name or len(name) > MAX_NAME or any(ord(c) < 32 or ord(c) == 127 for c in name)
            or "," in name or ";" in name):
        raise CommandError("turnier.bad_name", where=where, name=name)
    return name


def players_of(names, path):
    """Players from the command line and a file (one a line, "name; team", # comments): [(name, team)]."""
    found = [(check_player(n, "NAME"), None) for n in names]
    if path:
        from schocken_host.input_checks import read_text
        for i, line in enumerate(read_text(path).splitlines(), start=1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            name, _, team = line.partition(";")
            found.append((check_player(name, "%s:%d" % (path, i)), team.strip() or None))
    seen = set()
    for name, _ in found:
        if name in seen:
            raise CommandError("turnier.player_twice", name=name)
        seen.add(name)
    return found


def add_arguments(p):
    made = JOBS.add_parsers(p, p.lang, common=_job_options)
    made["anlegen"].add_argument("--name", default=None, help="the tournament's name (default: the folder's)")
    made["anlegen"].add_argument("--format", default="gonzerath", metavar="PRESET|FILE.toml",
                                 help="gonzerath, ferschweiler, schockenorg or a format file "
                                      "(docs/turnier.md)")
    made["anlegen"].add_argument("--seed", default=None,
                                 help="the draw's seed (default: a random one, printed)")
    for job in ("anlegen", "anmelden"):
        made[job].add_argument("names", nargs="*", metavar="NAME", help="a player's name")
        made[job].add_argument("--datei", "--file", dest="players_file", default=None, metavar="FILE",
                               help="players from a file: one a line, \"name; team\"")
    made["auslosen"].add_argument("--trotzdem", "--anyway", dest="anyway", action="store_true",
                                  help="draw although games of the round are missing")
    for job in ("auslosen", "karten"):
        made[job].add_argument("--url", default=None,
                               help="the director's address on the hall's network (default: http://THIS "
                                    "MACHINE:%d/)" % PORT)
    made["karten"].add_argument("--runde", "--round", dest="round", type=int, default=None,
                                help="the round (default: the latest)")
    made["karten"].add_argument("--out", default=None,
                                help="the HTML file (default: DIR/karten-runde-N.html)")
    made["leiten"].add_argument("--web", type=web_address, default=("", PORT), metavar="[HOST:]PORT",
                                help="where the director listens (default: port %d on every address)" % PORT)
    made["leiten"].add_argument("--exit-after", type=float, default=None, help=argparse.SUPPRESS)
    made["stand"].add_argument("--json", action="store_true", help="the standings as JSON")
    made["entscheiden"].add_argument("game", metavar="GAME_ID", help="the game held back")
    made["entscheiden"].add_argument("word", choices=("zaehlen", "verwerfen", "count", "reject"),
                                     help="count it, or reject it")
    made["senden"].add_argument("--log-dir", default=None, help="the log directory of schocken play")


def _job_options(job, command):
    job.add_argument("--lang", choices=("de", "en"), default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    if command.name not in ("senden", "formate"):
        job.add_argument("folder", metavar="DIR", help="the tournament's folder")


def run(args):
    lang = getattr(args, "lang", "de")
    if args.job is None:
        raise CommandError("turnier.no_job", jobs=", ".join(JOBS.names()))
    return JOBS[args.job].run(args, lang)


def _anlegen(args, lang):
    from schocken_host.tournament.store import Store
    fmt = format_of(args.format)
    players = players_of(args.names, args.players_file)
    name = args.name or Path(args.folder).resolve().name
    store = Store.create(args.folder, name, fmt, args.seed, players)
    print(tr(lang, "turnier.created", name=name, path=args.folder, format=fmt.name, seed=store.seed,
             players=len(players)))
    store.close()
    return 0


def _anmelden(args, lang):
    from schocken_host.tournament.store import Store
    store = Store(args.folder)
    try:
        players = players_of(args.names, args.players_file)
        store.add_players(players)
        print(tr(lang, "turnier.registered", count=len(players), total=len(store.players())))
    finally:
        store.close()
    return 0


def _base(url):
    if url:
        return url
    from schocken_host.views.web.listening import lan_address
    return "http://%s:%d/" % (lan_address(), PORT)


def _write_cards(director, round_no, base, out, lang):
    from schocken_host.tournament.cards import cards_html
    store = director.store
    kinds = dict(store.rounds())
    if round_no not in kinds:
        raise CommandError("turnier.no_round", round=round_no)
    page = cards_html(store.name, round_no, kinds[round_no], store.tables_of(round_no), store.keys(),
                      base, lang)
    path = Path(out) if out else director.folder / ("karten-runde-%d.html" % round_no)
    path.write_text(page, encoding="utf-8")
    return path


def _auslosen(args, lang):
    from schocken_host.tournament.director import Director
    with Director(args.folder) as director:
        round_no, kind, tables = director.draw_next(force=args.anyway)
        print(tr(lang, "turnier.drawn", round=round_no, kind=tr(lang, "turnier.kind_" + kind),
                 seed=director.store.seed, tables=len(tables)))
        for t, names in enumerate(tables, start=1):
            print(tr(lang, "turnier.table_line", table=t, players=", ".join(names)))
        path = _write_cards(director, round_no, _base(args.url), None, lang)
        print(tr(lang, "turnier.cards_at", path=path))
    return 0


def _karten(args, lang):
    from schocken_host.tournament.director import Director
    with Director(args.folder) as director:
        round_no = args.round if args.round is not None else director.store.current()[0]
        path = _write_cards(director, round_no, _base(args.url), args.out, lang)
        print(tr(lang, "turnier.cards_at", path=path))
    return 0


def _leiten(args, lang):
    from schocken_host.tournament.hall import Hall
    from schocken_host.tournament.store import Store
    from schocken_host.views.web.listening import bind, lan_address
    Store(args.folder).close()           # a folder that is no tournament: one line before the port is taken
    sock = bind(args.web)
    host = args.web[0] or lan_address()

    def said(text):
        print(text, flush=True)

    async def serve():
        hall = Hall(args.folder, sock, lang, said, args.web[0])
        await hall.start()
        said(tr(lang, "turnier.serving", name=hall.director.store.name,
                url="http://%s:%d/" % (host, hall.port)))
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(sig, stop.set)
            except (ValueError, RuntimeError, NotImplementedError):
                pass
        try:
            if args.exit_after is not None:
                await asyncio.wait_for(stop.wait(), args.exit_after)
            else:
                await stop.wait()
        except asyncio.TimeoutError:
            pass
        finally:
            await hall.stop()
    asyncio.run(serve())
    return 0


def _stand(args, lang):
    from schocken_host.tournament import standings as stand
    from schocken_host.tournament.director import Director
    with Director(args.folder) as director:
        lines = director.standings()
        held = director.store.held()
        final = director.final() if director.format.final is not None and any(
            k == "final" for _, k in director.store.rounds()) else None
        if args.json:
            print(json.dumps({"standings": [line.as_dict() for line in lines],
                              "held": [{"game_id": g, "round": r, "table": t, "reason": why}
                                       for g, r, t, why in held],
                              "final": None if final is None else [list(x) for x in final[0]]}))
            return 0
        out = [tr(lang, "turnier.standings_head")]
        for line in lines:
            out.append("%5d  %-20s  %6d  %6d  %12d  %13d  %6d" % (
                line.place, line.name, line.games, line.points, line.games_lost, line.halves_lost,
                line.deckel))
        teams = stand.teams(lines)
        if teams:
            out.append(tr(lang, "turnier.teams_head"))
            out += ["  %s: %d" % (t, p) for t, p, _, _ in teams]
        if final is not None:
            out.append(tr(lang, "turnier.final_head", out=director.format.final.out_after))
            out += ["  %d. %s (%d)" % (i + 1, n, lost) for i, (n, lost, _) in enumerate(final[0])]
        prizes = stand.prizes(director.format, len(lines))
        if prizes:
            out.append(tr(lang, "turnier.prizes_head", pool=director.format.entry_fee * len(lines)))
            out += ["  %d. %.2f €" % (p, a) for p, a in prizes]
        if held:
            out.append(tr(lang, "turnier.held_head"))
            out += [tr(lang, "turnier.held_line", game=g, round=r, table=t, reason=why)
                    for g, r, t, why in held]
        print("\n".join(out))
    return 0


def _entscheiden(args, lang):
    from schocken_host.tournament.director import Director
    with Director(args.folder) as director:
        status = director.decide(args.game, args.word in ("zaehlen", "count"))
        print(tr(lang, "turnier.decided", game=args.game, status=status))
    return 0


def _nachzaehlen(args, lang):
    from schocken_host.tournament.director import Director, recount
    with Director(args.folder) as director:
        mine = [line.as_dict() for line in director.standings()]
        games = len(director.store.counted("round"))
    again = [line.as_dict() for line in recount(args.folder)]
    if again == mine:
        print(tr(lang, "turnier.recount_equal", games=games))
        return 0
    differs = next(a["name"] for a, b in zip(again, mine) if a != b)
    print(tr(lang, "turnier.recount_differs", games=games, name=differs))
    return 1


def _senden(args, lang):
    from schocken_host.tournament.reporter import Outbox
    outbox = Outbox(args.log_dir)
    sent, waiting, why = outbox.flush()
    if why is None:
        print(tr(lang, "turnier.report_sent", sent=sent, waiting=waiting))
        return 0
    print(tr(lang, "turnier.report_waiting", why=why, waiting=waiting, path=outbox.folder), file=sys.stderr)
    return 1


def _formate(args, lang):
    for name, fmt in sorted(PRESETS.items()):
        d = fmt.as_dict()
        print("%s: %s" % (name, json.dumps({k: v for k, v in d.items() if k != "name"}, ensure_ascii=False)))
    return 0


# The jobs, by their German names with the English beside them; each handler is called as run(args, lang).
JOBS = Commands(
    "job", "turnier.job_metavar",
    Command("anlegen", "turnier.job_anlegen", _anlegen, aliases=("create",)),
    Command("anmelden", "turnier.job_anmelden", _anmelden, aliases=("register",)),
    Command("auslosen", "turnier.job_auslosen", _auslosen, aliases=("draw",)),
    Command("karten", "turnier.job_karten", _karten, aliases=("cards",)),
    Command("leiten", "turnier.job_leiten", _leiten, aliases=("direct",)),
    Command("stand", "turnier.job_stand", _stand, aliases=("standings",)),
    Command("entscheiden", "turnier.job_entscheiden", _entscheiden, aliases=("decide",)),
    Command("nachzaehlen", "turnier.job_nachzaehlen", _nachzaehlen, aliases=("recount",)),
    Command("senden", "turnier.job_senden", _senden, aliases=("send",)),
    Command("formate", "turnier.job_formate", _formate, aliases=("formats",)))
