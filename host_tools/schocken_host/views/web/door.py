"""What every request of a guest passes before the server's handlers (views/web/server.py) answer it, with the
defences of guard.py: its Host checked, counted as its connection's work (an idle connection may be closed to
make room, a busy one not) and whatever goes wrong answered in one line, never a traceback (``middleware``);
its responses written in pieces that must leave in time (``pieces``); an open page admitted under the caps
(``pages``); a table action only from the page's own origin with the key of the terminal's QR code or the PIN
(``action``)."""

import asyncio
import hmac
import time

from aiohttp import web

from schocken_host.i18n import tr
from schocken_host.views.web.connections import Pages, Pieces
from schocken_host.views.web.guard import (
    PIN_FORMAT, PinLimiter, Refused, action_body, check_origin, client_of, host_allowed, refusal_response,
    word_of)
from schocken_host.views.web.kernel import hang_up


class Door:
    """The requests of one server: ``port`` and ``names`` (besides the address a client connected to) the
    Host may name, ``lang`` of a refusal without ?lang=, ``pin`` and ``key`` of the table's actions (None:
    watch only)."""

    def __init__(self, port, names, lang, pin, key):
        self.port = port
        self.names = names
        self.lang = lang
        self.pin = pin
        self.key = key
        self.limiter = PinLimiter(time.monotonic)
        self.connections = None        # connections.Connections once it listens (none under a test client)
        self.pages = Pages()           # the open pages by client, capped
        self.failures = 0              # handlers that failed (answered 500 in one line)

    def gate(self, request):
        """The connection ``request`` came on (connections.Gate), None where connections are not counted."""
        return self.connections.of(request) if self.connections is not None else None

    def pieces(self, resp, request):
        """``resp`` written in pieces that must leave the process in time (connections.Pieces)."""
        return Pieces(resp, self.gate(request))

    def admit_page(self, woken, request):
        """An open page (an SSE stream woken by ``woken``) let in under the caps, else Refused."""
        self.pages.admit(woken, client_of(request.remote), request.transport)
        gate = self.gate(request)
        if gate is not None:
            self.connections.watch(gate)

    def middleware(self):
        """Every request: its Host checked, counted as its connection's work, and whatever goes wrong answered
        in one line."""
        @web.middleware
        async def guard(request, handler):
            gate = self.gate(request)
            if gate is not None:
                gate.busy += 1
            lang = request.query.get("lang", self.lang)
            try:
                local = request.transport.get_extra_info("sockname") if request.transport else None
                local = local or ("", self.port)
                if not host_allowed(request.headers.get("Host"), local[0], local[1], self.names):
                    raise Refused(421, "web.bad_host")
                return await handler(request)
            except Refused as refused:
                return refusal_response(refused, tr(lang, refused.key, **refused.fields))
            except (web.HTTPException, asyncio.CancelledError):
                raise
            except (ConnectionError, TimeoutError):
                hang_up(request.transport)    # a client that stopped reading: its buffers go with it
                raise web.HTTPRequestTimeout() from None
            except Exception:  # noqa: BLE001 - a guest's request must never print a traceback
                self.failures += 1
                return refusal_response(Refused(500, "web.failed"), tr(lang, "web.failed"))
            finally:
                if gate is not None:
                    gate.busy -= 1
        return guard

    async def action(self, request, seats):
        """(the referee's word, seat from 0, the word as sent) of a table action: only as JSON from the page's
        own origin, with the key or the PIN (limited: guard.PinLimiter), a seat of the game (``seats()``: how
        many, once the body is there); Refused in one line otherwise."""
        if self.pin is None:
            raise Refused(403, "web.watch_only")
        check_origin(request)
        body = await action_body(request)
        what, seat = word_of(body.get("word"), seats())
        self._check_credentials(body, client_of(request.remote))
        return what, seat, body["word"].strip(" ")

    def _check_credentials(self, body, client):
        """The key is checked whenever it is sent; a PIN only when the limiter lets this client try one
        now. No await between the check and the count: parallel guesses cannot overdraw the budget."""
        key, pin = body.get("key"), body.get("pin")
        if isinstance(key, str) and key and hmac.compare_digest(key.encode(), self.key.encode()):
            return
        if not isinstance(pin, str) or not PIN_FORMAT.fullmatch(pin):
            raise Refused(403, "web.no_pin")
        wait = self.limiter.wait_s(client)
        if wait > 0:
            raise Refused(429, "web.too_many", retry_after=wait, seconds=int(wait + 0.999))
        if not hmac.compare_digest(pin.encode(), self.pin.encode()):
            self.limiter.wrong(client)
            raise Refused(403, "web.no_pin")
        self.limiter.right(client)
