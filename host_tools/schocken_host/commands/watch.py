"""`schocken watch LOG [--web [HOST:]PORT]`: serve a game from its log as the live web page, following the log
while it grows (a game another process plays, or a finished one). Watch only: the page takes no table
actions. Runs until Ctrl-C (docs/web.md)."""

import asyncio

from schocken_host.errors import CommandError
from schocken_host.i18n import Message, tr
from schocken_host.input_checks import WEB_PORT, special_file, web_address
from schocken_host.table import gamelog


def add_arguments(p):
    p.add_argument("log", help="a game log (.jsonl), finished or still being written")
    p.add_argument("--web", nargs="?", const=("", WEB_PORT), default=("", WEB_PORT), type=web_address,
                   metavar="[HOST:]PORT",
                   help="where to serve the page (default port %d on every address)" % WEB_PORT)
    p.add_argument("--coach", action="store_true",
                   help="the page shows the player on turn his chance from what the table shows "
                        "(docs/odds.md)")


async def serve(view, path):
    await view.start()
    try:
        await view.hub.follow(path)
    finally:
        await view.stop(0)


def run(args):
    from schocken_host.views.web.server import WebView

    lang = getattr(args, "lang", "de")
    path = args.log
    if special_file(path):   # before opening it: a named pipe's open waits for a writer
        raise CommandError("gamelog.bad", path=path, error=Message("gamelog.not_a_file"))
    gamelog.check_readable(path)   # in replay's words
    view = WebView(args.web, lang, actions=False, coach=args.coach)
    print(view.banner(lang), flush=True)
    print(tr(lang, "web.watching", path=path), flush=True)
    try:
        asyncio.run(serve(view, path))
    except KeyboardInterrupt:
        pass
    return 0
