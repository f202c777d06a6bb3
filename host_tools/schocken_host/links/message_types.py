"""The wire's messages as types for the type checker: one TypedDict per message a cup sends
(``hostside.CUP_TO_HOST``: the seats' pumps read them so) and per message the host sends
(``protocol.HOST_TO_CUP``). On the host an error's ``msg`` is always there: the transport puts a ``why``
into words. Made by tests/kits/schema_types.py from CUP_TO_HOST and HOST_TO_CUP: edit the table, then run
it with --write. Import it under ``typing.TYPE_CHECKING`` only."""

from typing import Any, Literal, NotRequired, TypedDict, Union


class IdentityMessage(TypedDict):
    t: Literal["identity"]
    v: int
    cup: str
    name: str
    fw: str
    board: str
    battery: NotRequired[int | None]
    presets: list[Any]
    nonce: NotRequired[str | None]


class OkMessage(TypedDict):
    t: Literal["ok"]
    re: str
    name: NotRequired[str | None]
    seat: NotRequired[int | None]


class ErrorMessage(TypedDict):
    t: Literal["error"]
    code: str
    msg: NotRequired[str | None]
    re: NotRequired[str | None]
    why: NotRequired[list[Any] | None]


class ProgressMessage(TypedDict):
    t: Literal["progress"]
    round: int
    throws: int
    public: list[Any]


class DoneMessage(TypedDict):
    t: Literal["done"]
    round: int
    throws: int
    commit: str


class RevealedMessage(TypedDict):
    t: Literal["revealed"]
    round: int
    dice: list[int]
    nonce: str
    throws: int
    hand: bool
    transcript: list[Any]
    seed: NotRequired[str | None]


class SeedMessage(TypedDict):
    t: Literal["seed"]
    round: int
    hash: str


class ShakeMessage(TypedDict):
    t: Literal["shake"]
    round: int
    throw: int
    public: list[Any]


class StatusMessage(TypedDict):
    t: Literal["status"]
    state: str
    round: NotRequired[int | None]
    throws: int
    public: list[Any]
    seat: NotRequired[int | None]
    name: str
    seed: NotRequired[str | None]
    awaiting: NotRequired[int | None]
    id: NotRequired[int | None]
    battery: NotRequired[int | None]
    motion: NotRequired[str | None]


class PowerMessage(TypedDict):
    t: Literal["power"]
    ms: int
    wakes: int
    waiting: int
    light_sleep: int
    deep_sleep: int
    hosted: int
    leds_on: int
    led_channel_s: int
    id: NotRequired[int | None]


CupMessage = Union[
    IdentityMessage, OkMessage, ErrorMessage, ProgressMessage, DoneMessage, RevealedMessage, SeedMessage,
    ShakeMessage, StatusMessage, PowerMessage]

# the TypedDict of each cup's message, by its "t"
BY_TYPE: dict[str, Any] = {
    "identity": IdentityMessage, "ok": OkMessage, "error": ErrorMessage, "progress": ProgressMessage,
    "done": DoneMessage, "revealed": RevealedMessage, "seed": SeedMessage, "shake": ShakeMessage,
    "status": StatusMessage, "power": PowerMessage}


class HelloToCup(TypedDict):
    t: Literal["hello"]
    v: int
    nonce: NotRequired[str | None]


class ConfigureToCup(TypedDict):
    t: Literal["configure"]
    rules: dict[str, Any]
    name: str
    seat: int
    fair: NotRequired[bool | None]


class TurnToCup(TypedDict):
    t: Literal["turn"]
    round: int
    limit: NotRequired[int | None]
    void: NotRequired[int | None]


class RevealToCup(TypedDict):
    t: Literal["reveal"]
    round: int


class RoundEndToCup(TypedDict):
    t: Literal["round_end"]
    round: int


class OutcomeToCup(TypedDict):
    t: Literal["outcome"]
    round: int
    result: str
    deckel: int
    middle: int


class StatusToCup(TypedDict):
    t: Literal["status"]
    id: NotRequired[int | None]


class PowerToCup(TypedDict):
    t: Literal["power"]
    id: NotRequired[int | None]


class NonceToCup(TypedDict):
    t: Literal["nonce"]
    round: int
    throw: int
    nonce: str


HostMessage = Union[
    HelloToCup, ConfigureToCup, TurnToCup, RevealToCup, RoundEndToCup, OutcomeToCup, StatusToCup, PowerToCup,
    NonceToCup]

# the TypedDict of each host's message, by its "t"
TO_CUP_BY_TYPE: dict[str, Any] = {
    "hello": HelloToCup, "configure": ConfigureToCup, "turn": TurnToCup, "reveal": RevealToCup,
    "round_end": RoundEndToCup, "outcome": OutcomeToCup, "status": StatusToCup, "power": PowerToCup,
    "nonce": NonceToCup}


class GarbageItem(TypedDict):
    """A line from a cup the transport could not take (links/transport.py): its error code and why."""
    t: Literal["garbage"]
    code: str
    msg: str
