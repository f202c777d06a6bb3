"""The host's hello (links/transport.py) with a cup that has a secret, at a transport's interface: an identity
signed under another hello's nonce (the late answer to a hello that timed out on a loaded machine, which the
next try then read) is never taken, the answer to this hello is; with no authentic one the hello says why."""

import asyncio
import json

import pytest

from schocken import fair
from schocken_host.links import transport

SECRET = "00112233445566778899aabbccddeeff"


class SignedLink(transport.Transport):
    """A cup with SECRET that answers each hello with identities signed under the host nonces it is told."""

    name = "fake"

    def __init__(self, answers):
        self.queue = asyncio.Queue()
        self.answers = answers   # hello's nonce -> the host nonces its identities are signed under

    async def send(self, msg):
        if msg["t"] != "hello":
            return
        for k, host_nonce in enumerate(self.answers(msg["nonce"])):
            cup_nonce = "%032x" % (k + 1)
            key = fair.session_key(fair.unhex(SECRET), host_nonce, cup_nonce)
            body = json.dumps({"t": "identity", "v": 2, "cup": "cupS", "name": "", "fw": "0.1.0",
                               "board": "emulated", "battery": None, "presets": ["standard"],
                               "nonce": cup_nonce, "c": 1}).encode()
            self.queue.put_nowait(self._line_item(fair.sign(key, body)))


def test_a_late_identity_of_an_earlier_hello_is_passed_over():
    link = SignedLink(lambda nonce: ["ab" * 16, nonce])
    ident = asyncio.run(transport.hello(link, timeout=2.0, keys={"cupS": SECRET}))
    assert ident["cup"] == "cupS" and ident["nonce"] == "%032x" % 2 and link.session is not None


def test_an_identity_that_never_verifies_is_refused_when_the_hello_ends():
    link = SignedLink(lambda nonce: ["ab" * 16])
    with pytest.raises(transport.TransportClosed) as e:
        asyncio.run(transport.hello(link, timeout=0.3, keys={"cupS": SECRET}))
    assert "not authentic" in str(e.value) and link.session is None
