"""`schocken watch LOG [--web [HOST:]PORT]`: follow a game from its log while it grows (a game another process
plays, or a finished one): in the terminal, one line per event until the game is over; with --web as the live
web page, until Ctrl-C. Watch only: the page takes no table actions, and without --web nothing listens on the
network (docs/web.md)."""

import asyncio

from schocken_host.errors import CommandError
from schocken_host.i18n import Message, tr
from schocken_host.input_checks import WEB_PORT, special_file, web_address
from schocken_host.table import gamelog


def add_arguments(p):
    p.add_argument("log", help="a game log (.jsonl), finished or still being written")
    p.add_argument("--web", nargs="?", const=("", WEB_PORT), default=None, type=web_address,
                   metavar="[HOST:]PORT",
                   help="serve the game as a live web page (default port %d on every address; without "
                        "--web the game is followed in the terminal)" % WEB_PORT)
    p.add_argument("--coach", action="store_true",
                   help="the page shows the player on turn his chance from what the table shows "
                        "(only with --web; docs/odds.md)")


async def serve(view, path):
    await view.start()
    try:
        await view.hub.follow(path)
    finally:
        await view.stop(0)


async def follow_in_terminal(path, lang):
    """The game's events as plain lines, those in the log first, then each as it comes; returns at game over
    (1 when the rules refuse an event of the log: its line is named)."""
    from schocken_host.views.plain import PlainUI
    from schocken_host.views.web.hub import Hub

    ui = PlainUI(lang)
    hub = Hub(on_event=ui.update)
    await hub.follow(path, until=lambda: hub.error is not None or hub.state.over)
    if hub.error is not None:
        ui.note(tr(lang, "web.bad_line", path=path, line=hub.error[0], error=hub.error[1]))
        return 1
    return 0


def run(args):
    lang = getattr(args, "lang", "de")
    path = args.log
    if special_file(path):   # before opening it: a named pipe's open waits for a writer
        raise CommandError("gamelog.bad", path=path, error=Message("gamelog.not_a_file"))
    gamelog.check_readable(path)   # in replay's words
    if args.web is None:
        if args.coach:
            raise CommandError("web.coach_needs_web")
        print(tr(lang, "web.watching", path=path), flush=True)
        try:
            return asyncio.run(follow_in_terminal(path, lang))
        except KeyboardInterrupt:
            return 0
    from schocken_host.views.web.server import WebView

    view = WebView(args.web, lang, actions=False, coach=args.coach)
    print(view.banner(lang), flush=True)
    print(tr(lang, "web.watching", path=path), flush=True)
    try:
        asyncio.run(serve(view, path))
    except KeyboardInterrupt:
        pass
    return 0
