"""The message tables of schocken.protocol against docs/protocol.md, and the field-spec format itself."""

import re
from pathlib import Path

import pytest

from schocken import protocol

from schocken import hostside

DOC = (Path(__file__).resolve().parents[1] / "docs" / "protocol.md").read_text()
KINDS = {"i", "s", "b", "d", "l", "o", "h"}


def doc_row(kind):
    rows = [line for line in DOC.splitlines() if line.startswith("| `%s` |" % kind)]
    assert rows, "docs/protocol.md has no table row for %s" % kind
    return rows


@pytest.mark.parametrize("table", [protocol.HOST_TO_CUP, hostside.CUP_TO_HOST])
def test_every_field_of_every_message_is_documented(table):
    for kind, spec in table.items():
        rows = doc_row(kind)  # "status" has a row in each direction
        for name, field_kind in hostside.fields(spec):
            want = "`%s`: %s" % (name, field_kind)
            assert any(want in row for row in rows), "%s.%s (%s) missing from docs/protocol.md" % (
                kind, name, field_kind)


@pytest.mark.parametrize("table", [protocol.HOST_TO_CUP, hostside.CUP_TO_HOST])
def test_field_specs_are_well_formed(table):
    for kind, spec in table.items():
        names = [name for name, _ in hostside.fields(spec)]
        assert len(names) == len(set(names)), kind
        for name, field_kind in hostside.fields(spec):
            assert re.fullmatch(r"[a-z_]+", name), (kind, name)
            assert field_kind.rstrip("?") in KINDS and len(field_kind) <= 2, (kind, field_kind)


def test_fields_gives_pairs_in_order():
    assert hostside.fields(protocol.HOST_TO_CUP["turn"]) == [("round", "i"), ("limit", "i?"), ("void", "i?")]
    assert hostside.fields(protocol.HOST_TO_CUP["status"]) == [("id", "i?")]


def test_an_old_cups_progress_with_its_event_field_is_understood():
    """Older firmware names the move in every progress (`event`); the host never read it and ignores it, as it
    ignores every field it does not know."""
    line = b'{"t": "progress", "round": 1, "throws": 1, "public": [[0, 1]], "event": "aside"}\n'
    assert hostside.check_fields(protocol.decode(line, hostside.CUP_TO_HOST))["public"] == [[0, 1]]
    assert "event" not in dict(hostside.fields(hostside.CUP_TO_HOST["progress"]))


def test_validate_follows_the_spec():
    assert protocol.validate({"t": "turn", "round": 2}, protocol.HOST_TO_CUP) == "turn"  # limit optional
    assert protocol.validate({"t": "turn", "round": 2, "limit": None}, protocol.HOST_TO_CUP) == "turn"
    with pytest.raises(protocol.ProtocolError, match="needs field round"):
        protocol.validate({"t": "turn", "limit": 1}, protocol.HOST_TO_CUP)
    with pytest.raises(protocol.ProtocolError, match="field limit has the wrong type"):
        protocol.validate({"t": "turn", "round": 1, "limit": "1"}, protocol.HOST_TO_CUP)
    with pytest.raises(protocol.ProtocolError) as e:
        protocol.validate({"t": "nonce", "round": 1, "throw": 1, "nonce": "XYZ"}, protocol.HOST_TO_CUP)
    assert e.value.code == protocol.E_BAD_MESSAGE
