"""Records are declared once and checked against the native structs field by field."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import gincore
from gincore import _engine, _rummy
from gincore._records import check_layout, record_dtype
from ginsim import Rules, play_hand


@pytest.mark.parametrize("module", [_engine, _rummy], ids=["gin", "rummy"])
def test_the_declared_fields_are_the_structs(module) -> None:
    check_layout(module.__name__, module.RECORD_DTYPE, module._native_record, module.RECORD_DTYPE.itemsize)


@pytest.mark.parametrize("field, wrong", [("points", np.uint16), ("winner", np.uint8), ("turns", np.int8),
                                          ("knocker_sets", np.int64)])
def test_a_field_of_another_type_fails_even_at_the_same_size(field: str, wrong: type) -> None:
    fields = [(name, wrong if name == field else kind) for name, kind in _engine.RECORD_FIELDS]
    dtype = record_dtype(fields)
    if dtype.itemsize != _engine.RECORD_DTYPE.itemsize:  # a size change fails on the size alone
        pytest.skip("the layout's size changed")
    with pytest.raises(ImportError, match=field):
        check_layout("gincore._engine", dtype, _engine._native_record, _engine.RECORD_DTYPE.itemsize)


def test_fields_in_another_order_fail() -> None:
    fields = list(_engine.RECORD_FIELDS)
    fields[0], fields[1] = fields[1], fields[0]
    with pytest.raises(ImportError, match="do not match"):
        check_layout("gincore._engine", record_dtype(fields), _engine._native_record, _engine.RECORD_DTYPE.itemsize)


def test_hand_results_carry_every_record_column() -> None:
    names = {field.name for field in dataclasses.fields(play_hand(Rules(), "simple,simple", seed=1))}
    assert set(_engine.RECORD_COLUMNS) <= names
    assert set(_engine.RECORD_COLUMNS) <= set(play_hand(Rules(), "simple,simple", seed=1).to_json())


def test_the_empty_slots_are_exported() -> None:
    assert gincore.NO_CARD == gincore.NO_PLAYER == 255
    events = play_hand(Rules(), "simple,simple", seed=1).events
    assert all(event.card != gincore.NO_CARD and event.player != gincore.NO_PLAYER for event in events)
