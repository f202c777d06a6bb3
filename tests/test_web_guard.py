"""The page's defences on a shared Wi-Fi (issue 32, views/web/guard.py, docs/web.md "Threat model"): the PIN's
limiter and its year, the exact grammar of a table word, the Host and Origin checks, every malformed action
answered with a 4xx and never reaching the referee, and the connection caps, timeouts and the SSE stream that
lets a non-reading client go, on a real server on the loopback (each client from its own 127.x address)."""

import asyncio
import json
import socket

import pytest

from schocken_host.views.web import guard, server
from schocken_host.views.web.guard import PinLimiter, Refused, host_allowed, word_of
from schocken_host.views.web.server import WebView

from kits.webkit import with_client
from kits.tablekit import ROOT

GAME = ROOT / "tests" / "data" / "web_game.jsonl"
YEAR_S = 365 * 24 * 3600


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


class FakeReferee:
    def __init__(self):
        self.requests = []

    def request(self, what, seat):
        self.requests.append((what, seat))


# --- the PIN's year -----------------------------------------------------------------------------------------
def test_guessing_the_pin_takes_more_than_a_year_at_the_best_rate_the_server_allows():
    # docs/web.md: half the PIN space; each wrong guess past the burst costs WRONG_EVERY_S of the budget
    expected_guesses = (10 ** 6 + 1) / 2
    assert (expected_guesses - guard.WRONG_BURST) * guard.WRONG_EVERY_S >= YEAR_S
    clock = Clock()
    limiter = PinLimiter(clock)
    checked = 0
    # an attacker with 5,000 addresses asks as often as the limiter lets any of them, for a simulated day,
    # every 10 s: the budget keeps what it earns meanwhile (it fills for 900 s), so fewer asks lose none
    for step in range(24 * 360):
        clock.now += 10.0
        for address in ("10.0.%d.%d" % (step % 20, n) for n in range(250)):
            if limiter.wait_s(address) == 0:
                limiter.wrong(address)
                checked += 1
    assert checked <= guard.WRONG_BURST + 24 * 3600 / guard.WRONG_EVERY_S + 1


def test_a_guest_waits_longer_after_each_wrong_pin_and_a_right_one_clears_it():
    clock = Clock()
    limiter = PinLimiter(clock, burst=100)
    waits = []
    for _ in range(5):
        assert limiter.wait_s("10.0.0.7") == 0
        limiter.wrong("10.0.0.7")
        waits.append(limiter.wait_s("10.0.0.7"))
        clock.now += waits[-1]
    assert waits == [1, 2, 4, 8, 16]
    assert limiter.wait_s("10.0.0.8") == 0            # another guest is not held up by this one
    limiter.right("10.0.0.7")
    assert limiter.wait_s("10.0.0.7") == 0


def test_an_ipv6_guest_counts_as_his_network_not_each_address():
    assert guard.client_of(("2001:db8::1", 5, 0, 0)) == guard.client_of(("2001:db8::ffff:2", 6, 0, 0))
    assert guard.client_of(("::ffff:10.0.0.1", 5, 0, 0)) == "10.0.0.1"
    assert guard.client_of(None) == "?"


# --- table words and hosts ----------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["wait ²", "wait " + "9" * 5000, "wait 0", "wait 5", "forfeit  2", "Wait 1",
                                  "wait 1 2", "wait", "shake 1", "wait ١", "wait -1", "wait +1", "wait 01", 7,
                                  None, ["wait", 1]])
def test_a_table_word_outside_the_grammar_is_a_400(text):
    with pytest.raises(Refused) as refused:
        word_of(text, 4)
    assert refused.value.status == 400


def test_the_table_words_of_the_page():
    assert [word_of(w, 4) for w in ("drop 1", "ein 2", " wait 3 ", "forfeit 4")] == [
        ("penalty", 0), ("einwuerfeln", 1), ("wait", 2), ("forfeit", 3)]


@pytest.mark.parametrize("header,local,port,answer", [
    ("127.0.0.1:8015", "127.0.0.1", 8015, True),
    ("localhost:8015", "127.0.0.1", 8015, True),
    ("192.168.1.5:8015", "192.168.1.5", 8015, True),
    ("[::1]:8015", "::1", 8015, True),
    ("192.168.1.5:8015", "::ffff:192.168.1.5", 8015, True),
    (None, "192.168.1.5", 8015, True),                  # HTTP/1.0 without Host: no browser
    ("evil.example:8015", "192.168.1.5", 8015, False),  # DNS rebinding: the browser names the other site
    ("localhost:8015", "192.168.1.5", 8015, True),      # names the server answers to
    ("192.168.1.6:8015", "192.168.1.5", 8015, False),
    ("192.168.1.5:8016", "192.168.1.5", 8015, False),
    ("192.168.1.5", "192.168.1.5", 8015, False),        # port 80 implied
    ("192.168.1.5:+8015", "192.168.1.5", 8015, False),
    ("[::1", "::1", 8015, False),
    ("::1:8015", "::1", 8015, False),
    ("", "192.168.1.5", 8015, False),
])
def test_the_host_header_names_this_server(header, local, port, answer):
    assert host_allowed(header, local, port, {"localhost"}) is answer


# --- malformed and cross-site actions, through aiohttp's test client ----------------------------------------
def test_every_malformed_or_cross_site_action_is_a_4xx_and_never_reaches_the_referee():
    view = WebView(("127.0.0.1", 0))
    view.attach_log(GAME)
    view.referee = referee = FakeReferee()
    pin = view.pin
    as_json = {"Content-Type": "application/json"}

    async def test(client):
        def post(data, headers=as_json, path="/action"):
            body = data if isinstance(data, bytes) else json.dumps(data).encode()
            return client.post(path, data=body, headers=headers)
        host = "127.0.0.1:%d" % client.port
        cases = {
            "nested 60 KB": (post(b"[" * 60000 + b"]" * 60000), 413),
            "nested under 1 KB": (post(b"[" * 500 + b"]" * 500), 400),
            "charset=nope": (post({"pin": pin, "word": "wait 1"},
                                  {"Content-Type": "application/json; charset=nope"}), 415),
            "text/plain": (post({"pin": pin, "word": "wait 1"}, {"Content-Type": "text/plain"}), 415),
            "a form": (post(b"pin=%s&word=wait+1" % pin.encode(),
                            {"Content-Type": "application/x-www-form-urlencoded"}), 415),
            "no type": (post({"pin": pin, "word": "wait 1"}, {}), 415),
            "another site": (post({"pin": pin, "word": "wait 1"},
                                  dict(as_json, Origin="http://evil.example")), 403),
            "Origin null": (post({"pin": pin, "word": "wait 1"}, dict(as_json, Origin="null")), 403),
            "cross-site fetch": (post({"pin": pin, "word": "wait 1"},
                                      dict(as_json, **{"Sec-Fetch-Site": "cross-site"})), 403),
            "another Host": (post({"pin": pin, "word": "wait 1"}, dict(as_json, Host="evil.example:%d"
                                                                       % client.port)), 421),
            "not an object": (post([pin, "wait 1"]), 400),
            "another field": (post({"pin": pin, "word": "wait 1", "x": 1}), 400),
            "not UTF-8": (post(b'{"pin": "\xff", "word": "wait 1"}'), 400),
            "wait ²": (post({"pin": pin, "word": "wait ²"}), 400),
            "5000 digits": (post({"pin": pin, "word": "wait " + "9" * 5000}), 413),
            "500 digits": (post({"pin": pin, "word": "wait " + "9" * 500}), 400),
            "seat 9 of 4": (post({"pin": pin, "word": "wait 9"}), 400),
            "a PIN as a number": (post({"pin": int(pin), "word": "wait 1"}), 403),
            "a GET": (client.get("/action?pin=%s&word=wait+1" % pin), 405),
            "a page from another Host": (client.get("/", headers={"Host": "evil.example:%d" % client.port}),
                                         421),
            "the log from another Host": (client.get("/log.jsonl", headers={"Host": "rebind.example"}), 421),
        }
        for what, (request, status) in cases.items():
            resp = await request
            assert resp.status == status, (what, resp.status, await resp.text())
            assert "Traceback" not in await resp.text()
        # the page's own request still works after all that
        same = await post({"pin": pin, "word": "wait 1"}, dict(as_json, Origin="http://" + host))
        assert same.status == 200, await same.text()
    with_client(view, test)
    assert referee.requests == [("wait", 0)]
    assert view.door.failures == 0


# --- a real server: caps and timeouts -----------------------------------------------------------------------
def run_server(test, monkeypatch, **limits):
    for name, value in limits.items():
        monkeypatch.setattr(server if hasattr(server, name) else guard, name, value)

    async def main():
        view = WebView(("127.0.0.1", 0))
        view.attach_log(GAME)
        await view.start()
        try:
            return await asyncio.wait_for(test(view), 30)
        finally:
            await view.stop(0)
    return asyncio.run(main())


async def connect(view, address):
    return await asyncio.open_connection("127.0.0.1", view.port, local_addr=(address, 0))


async def get(view, path, address="127.0.0.1"):
    reader, writer = await connect(view, address)
    writer.write(b"GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n"
                 % (path.encode(), view.port))
    data = await asyncio.wait_for(reader.read(), 10)
    writer.close()
    return int(data.split(b" ", 2)[1]) if data else None


def test_a_connection_that_sends_no_whole_head_is_closed(monkeypatch):
    async def test(view):
        reader, writer = await connect(view, "127.0.3.1")
        writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")      # the head never ends
        assert await asyncio.wait_for(reader.read(), 10) == b""
        writer.close()
    run_server(test, monkeypatch, HEADER_S=0.5)


def test_one_address_gets_a_few_connections_and_the_next_a_429(monkeypatch):
    async def test(view):
        held = [await connect(view, "127.0.3.2") for _ in range(3)]
        reader, writer = await connect(view, "127.0.3.2")
        answer = await asyncio.wait_for(reader.read(), 5)
        assert answer.startswith(b"HTTP/1.1 429 "), answer
        assert await get(view, "/page.json", "127.0.3.3") == 200     # another guest comes in
        for _, w in held + [(reader, writer)]:
            w.close()
    run_server(test, monkeypatch, PER_ADDRESS_CONNECTIONS=3)


def test_at_the_overall_cap_a_new_guest_takes_the_place_of_an_idle_one(monkeypatch):
    async def test(view):
        idle = [await connect(view, "127.0.4.%d" % n) for n in range(1, 5)]
        await asyncio.sleep(0.1)
        assert await get(view, "/page.json") == 200
        assert await asyncio.wait_for(idle[0][0].read(), 5) == b""   # the oldest idle one made room
        for _, w in idle:
            w.close()
    run_server(test, monkeypatch, MAX_CONNECTIONS=4)


def test_at_the_cap_the_guest_with_the_most_connections_makes_room_not_a_phone_between_requests(monkeypatch):
    async def test(view):
        phone = await connect(view, "127.0.4.20")         # the oldest, idle between two requests of its page
        flood = [await connect(view, "127.0.4.21") for _ in range(3)]
        await asyncio.sleep(0.1)
        assert await get(view, "/page.json", "127.0.4.22") == 200
        assert await asyncio.wait_for(flood[0][0].read(), 5) == b""     # the flood's oldest made room
        phone[1].write(b"GET /page.json HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % view.port)
        assert (await asyncio.wait_for(phone[0].readline(), 5)).startswith(b"HTTP/1.1 200")
        for _, w in [phone] + flood:
            w.close()
    run_server(test, monkeypatch, MAX_CONNECTIONS=4)


def test_connects_past_an_addresss_rate_are_answered_429_before_any_work(monkeypatch):
    async def test(view):
        answers = [await get(view, "/page.json", "127.0.7.1") for _ in range(5)]
        assert answers == [200, 200, 200, 429, 429], answers
        assert view.server.limited == 2 and view.door.connections.refused == 0
        assert await get(view, "/page.json", "127.0.7.2") == 200     # another address is not held back
    run_server(test, monkeypatch, CONNECTS_BURST=3, CONNECTS_PER_S=0.01)


def test_open_pages_are_capped_per_address(monkeypatch):
    async def test(view):
        pages = []
        for _ in range(2):
            reader, writer = await connect(view, "127.0.5.1")
            writer.write(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % view.port)
            assert (await asyncio.wait_for(reader.readline(), 5)).startswith(b"HTTP/1.1 200")
            pages.append(writer)
        assert await get(view, "/events", "127.0.5.1") == 429
        assert len(view.sent) == 2
        for w in pages:
            w.close()
    run_server(test, monkeypatch, SUBSCRIBERS_PER_ADDRESS=2)


def test_a_page_that_does_not_read_is_let_go_and_holds_little_meanwhile(monkeypatch):
    async def test(view):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.bind(("127.0.6.1", 0))
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", view.port))
        sock.send(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % view.port)
        while not view.sent:
            await asyncio.sleep(0.05)
        gate = next(iter(view.door.connections.gates))
        for n in range(400):              # the game goes on; this page never reads
            view.hub.feed({"ev": "note", "text": "x" * 2000, "n": n})
            await asyncio.sleep(0)
            assert gate.transport.get_write_buffer_size() <= 2 * guard.PIECE + 8192
        for _ in range(100):
            if not view.sent:
                break
            await asyncio.sleep(0.1)
        assert not view.sent, "the page that does not read is still served"
        sock.close()
    run_server(test, monkeypatch, WRITE_S=1.0)


def test_at_the_cap_of_open_pages_a_guest_with_none_takes_the_place_of_one_who_holds_many(monkeypatch):
    async def open_page(view, address):
        reader, writer = await connect(view, address)
        writer.write(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % view.port)
        return reader, writer, (await asyncio.wait_for(reader.readline(), 5)).split(b" ")[1]

    async def test(view):
        hog = [await open_page(view, "127.0.7.1") for _ in range(3)]
        other = await open_page(view, "127.0.7.2")
        assert [h[2] for h in hog] + [other[2]] == [b"200"] * 4
        tv = await open_page(view, "127.0.7.3")          # the cap is full: the hog's oldest page makes room
        assert tv[2] == b"200"
        assert await asyncio.wait_for(hog[0][0].read(), 5) is not None
        assert hog[0][0].at_eof()
        assert len(view.door.pages) == 4
        # a guest with one page does not push out another guest with one: 503
        _, _, status = await open_page(view, "127.0.7.4")
        _, _, again = await open_page(view, "127.0.7.2")
        assert (status, again) == (b"200", b"503")
        for reader, writer, _ in hog + [other, tv]:
            writer.close()
    run_server(test, monkeypatch, MAX_SUBSCRIBERS=4)


def test_the_pages_are_woken_at_most_a_fifth_of_the_loops_time_and_what_came_meanwhile_goes_in_one_wake():
    from schocken_host.views.web import hub as hub_module
    from schocken_host.views.web.hub import Hub

    async def main():
        hub = Hub()
        page = asyncio.Event()
        hub.subscribers.add(page)
        loop = asyncio.get_running_loop()
        hub.feed({"ev": "note", "n": 1})               # a first change: the page is woken at once
        await asyncio.wait_for(page.wait(), 1)
        page.clear()
        await asyncio.sleep(0)                          # the hub has timed the pages' work
        hub.work_s = 0.05                               # say it took 50 ms
        start = loop.time()
        for n in range(2, 6):                           # four changes: one wake, after four times that
            hub.feed({"ev": "note", "n": n})
        await asyncio.wait_for(page.wait(), 1)
        waited = loop.time() - start
        page.clear()
        assert hub_module.WAKE_WAIT_FACTOR * 0.05 <= waited + 0.01, waited
        await asyncio.sleep(0.3)
        assert not page.is_set()                        # the four came in one wake
        assert hub.messages(0, hub.count)[-2].startswith(b"id: 5\n")
        hub.work_s = 60.0                               # however long the work, a wake waits at most a second
        start = loop.time()
        hub.feed({"ev": "note", "n": 6})
        await asyncio.wait_for(page.wait(), hub_module.WAKE_WAIT_MAX_S + 1)
        assert loop.time() - start <= hub_module.WAKE_WAIT_MAX_S + 0.5
        hub.close()
    asyncio.run(main())
