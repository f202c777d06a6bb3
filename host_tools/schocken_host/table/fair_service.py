"""Fair play's part of a seat's pump (docs/fairness.md): each turn's seed commitment logged once, and the
host's nonce for each throw, logged once and sent again as often as the cup asks. A cup restarted between
its shake and the nonce gets the nonce it was waiting for, never a second chance; no nonce goes out before the
commitment is known, without which the throw could not be checked."""

import secrets


class FairPlay:
    """``send(seat, msg)`` sends to a cup (once the log is on disk), ``ask_status(seat)`` asks for its status
    without waiting, ``fault(seat, reason)`` reports what a cup must not send; the state and the log through
    the ``sink``."""

    def __init__(self, sink, send, ask_status, fault):
        self.sink = sink
        self.send = send
        self.ask_status = ask_status
        self.fault = fault

    def seed(self, seat_no, seed_hash):
        p = self.sink.state.players[seat_no]
        if p.seed_hash is None:
            self.sink.emit({"ev": "seed", "round": self.sink.state.round, "seat": seat_no, "hash": seed_hash})
        elif p.seed_hash != seed_hash:
            self.fault(seat_no, "a second seed commitment in one turn (the first one stands)")

    async def nonce(self, seat_no, throw):
        st = self.sink.state
        p = st.players[seat_no]
        if p.seed_hash is None:
            await self.ask_status(seat_no)  # its status carries the commitment
            return
        nonce = p.nonces.get(throw)
        if nonce is None:
            if throw != len(p.nonces) + 1:
                self.fault(seat_no, "shake for throw %d, the host knows %d" % (throw, len(p.nonces)))
                return
            nonce = secrets.token_hex(16)
            self.sink.emit({"ev": "nonce", "round": st.round, "seat": seat_no, "throw": throw,
                            "nonce": nonce})
        await self.send(seat_no, {"t": "nonce", "round": st.round, "throw": throw, "nonce": nonce})
