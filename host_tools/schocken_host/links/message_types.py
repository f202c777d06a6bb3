"""What a cup sends, as types for the type checker: one TypedDict per message of ``hostside.CUP_TO_HOST``,
whose "name:kind" table stays the one the host checks every line with at run time (it is the firmware's
package, where typing is not). tests/test_types.py keeps the two equal, field by field and kind by kind, as
it does the game log's events (table/event_types.py); the seats' pumps (table/cuplinks.py) read messages as
these types. ``GarbageItem`` is the transport's own: a line it could not take. Import it under
``typing.TYPE_CHECKING`` only."""

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
    msg: NotRequired[str | None]        # the transport puts a why into words here: on the host it is there
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


class GarbageItem(TypedDict):
    """A line from a cup the transport could not take (links/transport.py): its error code and why."""
    t: Literal["garbage"]
    code: str
    msg: str


CupMessage = Union[IdentityMessage, OkMessage, ErrorMessage, ProgressMessage, DoneMessage, RevealedMessage,
                   SeedMessage, ShakeMessage, StatusMessage, PowerMessage]

# the TypedDict of each message type, by its "t"
BY_TYPE: dict[str, Any] = {
    "identity": IdentityMessage, "ok": OkMessage, "error": ErrorMessage, "progress": ProgressMessage,
    "done": DoneMessage, "revealed": RevealedMessage, "seed": SeedMessage, "shake": ShakeMessage,
    "status": StatusMessage, "power": PowerMessage}
