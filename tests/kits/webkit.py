"""The live web view's server under aiohttp's test client, for the tests of its endpoints and its defences."""

import asyncio

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
