"""The game log's events as types for the type checker: one TypedDict per event of ``table/events.py``. Made
by tests/kits/schema_types.py from EVENTS: edit the table, then run it with --write. Import it under
``typing.TYPE_CHECKING`` only."""

from typing import Any, Literal, NotRequired, TypedDict, Union

class _Base(TypedDict):
    ts: NotRequired[float]          # every event may carry the host's time


class StartEvent(_Base):
    ev: Literal["start"]
    version: int
    game_id: str
    rules: dict[str, Any]
    reveal: NotRequired[str | None]
    cheat: NotRequired[str | None]
    fair: NotRequired[bool | None]
    players: list[Any]
    table: NotRequired[str | None]


class OpenerEvent(_Base):
    ev: Literal["opener"]
    seat: int
    round: NotRequired[int | None]
    reason: NotRequired[str | None]


class ResumedEvent(_Base):
    ev: Literal["resumed"]


class TurnEvent(_Base):
    ev: Literal["turn"]
    round: int
    seat: int
    limit: NotRequired[int | None]
    kind: NotRequired[str | None]
    order: NotRequired[list[int] | None]
    continued: NotRequired[bool | None]


class ProgressEvent(_Base):
    ev: Literal["progress"]
    round: int
    seat: int
    throws: int
    public: list[list[int]]


class SeedEvent(_Base):
    ev: Literal["seed"]
    round: int
    seat: int
    hash: str


class NonceEvent(_Base):
    ev: Literal["nonce"]
    round: int
    seat: int
    throw: int
    nonce: str


class DoneEvent(_Base):
    ev: Literal["done"]
    round: int
    seat: int
    throws: int
    commit: str


class RevealEvent(_Base):
    ev: Literal["reveal"]
    round: int
    seat: int
    dice: list[int]
    throws: int
    hand: Any
    nonce: Any
    transcript: list[Any]
    seed: NotRequired[str | None]
    label: str
    kind: str


class CheatEvent(_Base):
    ev: Literal["cheat"]
    round: int
    seat: int
    reason: str


class FaultEvent(_Base):
    ev: Literal["fault"]
    round: NotRequired[int | None]
    seat: int
    reason: str


class ReplayRoundEvent(_Base):
    ev: Literal["replay_round"]
    round: int
    reason: NotRequired[str | None]
    seats: list[int]


class ThrowOffEvent(_Base):
    ev: Literal["throw_off"]
    round: int
    seats: list[int]
    dice: list[Any]
    opener: NotRequired[int | None]


class RoundEvent(_Base):
    ev: Literal["round"]
    round: int
    order: list[int]
    entries: list[Any]
    forfeit: NotRequired[list[int] | None]
    ranking: list[int]
    best: int
    worst: int
    deckel: Any
    moves: list[Any]


class HalfLostEvent(_Base):
    ev: Literal["half_lost"]
    phase: str
    seat: int


class PenaltyEvent(_Base):
    ev: Literal["penalty"]
    seat: int
    moves: list[Any]


class EinwuerfelnEvent(_Base):
    ev: Literal["einwuerfeln"]
    seat: int
    moves: list[Any]


class PauseEvent(_Base):
    ev: Literal["pause"]
    seat: int
    reason: str


class ResumeEvent(_Base):
    ev: Literal["resume"]
    seat: int


class AbsentEvent(_Base):
    ev: Literal["absent"]
    seat: int
    after: Any
    reason: str


class WaitEvent(_Base):
    ev: Literal["wait"]
    seat: int
    round: NotRequired[int | None]


class ForfeitEvent(_Base):
    ev: Literal["forfeit"]
    round: int
    seat: int
    by: str


class StopEvent(_Base):
    ev: Literal["stop"]
    reason: str


class GameOverEvent(_Base):
    ev: Literal["game_over"]
    loser: int
    blattschuss: bool


class BotFallbackEvent(_Base):
    ev: Literal["bot_fallback"]
    round: int
    seat: int
    strategy: str
    throws: int
    by: str
    move: list[Any]
    reason: str
    fallback: str


class BatteryEvent(_Base):
    ev: Literal["battery"]
    seat: int
    mv: int
    percent: NotRequired[int | None]
    usb: bool
    hours: NotRequired[Any | None]
    low: bool


Event = Union[
    StartEvent, OpenerEvent, ResumedEvent, TurnEvent, ProgressEvent, SeedEvent, NonceEvent, DoneEvent,
    RevealEvent, CheatEvent, FaultEvent, ReplayRoundEvent, ThrowOffEvent, RoundEvent, HalfLostEvent,
    PenaltyEvent, EinwuerfelnEvent, PauseEvent, ResumeEvent, AbsentEvent, WaitEvent, ForfeitEvent, StopEvent,
    GameOverEvent, BotFallbackEvent, BatteryEvent]

# the TypedDict of each event type, by its "ev"
BY_NAME: dict[str, Any] = {
    "start": StartEvent, "opener": OpenerEvent, "resumed": ResumedEvent, "turn": TurnEvent,
    "progress": ProgressEvent, "seed": SeedEvent, "nonce": NonceEvent, "done": DoneEvent,
    "reveal": RevealEvent, "cheat": CheatEvent, "fault": FaultEvent, "replay_round": ReplayRoundEvent,
    "throw_off": ThrowOffEvent, "round": RoundEvent, "half_lost": HalfLostEvent, "penalty": PenaltyEvent,
    "einwuerfeln": EinwuerfelnEvent, "pause": PauseEvent, "resume": ResumeEvent, "absent": AbsentEvent,
    "wait": WaitEvent, "forfeit": ForfeitEvent, "stop": StopEvent, "game_over": GameOverEvent,
    "bot_fallback": BotFallbackEvent, "battery": BatteryEvent}
