"""The live web view's server under aiohttp's test client, for the tests of its endpoints and its defences."""

import asyncio
import json

from aiohttp.test_utils import TestClient, TestServer


def with_client(view, test):
    """Run ``await test(client)`` against ``view``'s app in aiohttp's test server; the view's own socket is
    closed afterwards (the test server listens on one of its own)."""
    async def main():
        async with TestClient(TestServer(view.app())) as client:
            return await test(client)
    try:
        return asyncio.run(main())
    finally:
        view.sock.close()


class Played:
    """A game as table/sink.py shows it to the web view: each event applied to the game's one TableState,
    then handed to ``view.update`` with that state (the page reads it, and applies nothing itself)."""

    def __init__(self, view):
        from schocken_host.table.state import TableState
        self.view = view
        self.state = TableState()

    def __call__(self, ev):
        ev = json.loads(json.dumps(ev))     # the game's own event, as the sink would have made it
        self.state.apply(ev)
        self.view.update(self.state, ev)
