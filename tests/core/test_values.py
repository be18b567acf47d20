

def test_a_seat_is_an_int_within_the_players_never_a_bool() -> None:
    from boardlab.core.values import is_seat

    assert [is_seat(value, 2) for value in (0, 1, 2, -1)] == [True, True, False, False]
    assert not is_seat(True, 2) and not is_seat(False, 2)  # bools are ints to Python, not seats
    assert not is_seat("0", 2) and not is_seat(0.0, 2) and not is_seat(None, 2)
