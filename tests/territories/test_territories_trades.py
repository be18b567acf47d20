"""Player trade proposals are listed completely (R8.2 - R8.4, R10.3): once announced
(``propose``), every proposal the rules allow is a listed move, each once.

The reference below is deliberately simple: every pair of resource vectors within
the holdings, filtered by the rules' conditions. The game's generator (cached,
by sides) must agree with it exactly.
"""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from boardlab.core import IllegalMoveError, PositionError
from boardlab.games.territories import TerritoriesGame, proposal_count
from boardlab.games.territories.cards import resources_text
from tests.territories.helpers import play_all, position, state


def listed(st, word: str = "offer") -> list[str]:
    return [str(m) for m in st.legal_moves() if str(m).startswith(word + "(")]


def proposing(**fields) -> object:
    """A state from :func:`state` where White has announced a proposal, when one is possible."""
    st = state(**fields)
    if "propose" in {str(m) for m in st.legal_moves()}:
        st.play("propose")
    return st


def reference_proposals(mine, theirs, word: str = "offer", own_cards=(), known_cards=()) -> set[str]:
    """R8.2 and R8.4 read literally: G within the giver's holding (with at most one of the giver's
    cards), R within the other's (with at most one card known to be theirs), both non-empty, no
    resource kind on both sides."""
    def side(amounts, card) -> str:
        return ",".join(part for part in (resources_text(amounts), card) if part)

    found = set()
    for give in product(*(range(count + 1) for count in mine)):
        for get in product(*(range(count + 1) for count in theirs)):
            if any(g and r for g, r in zip(give, get)):
                continue
            for give_card in ("", *own_cards):
                for get_card in ("", *known_cards):
                    if (any(give) or give_card) and (any(get) or get_card):
                        found.add(f"{word}({side(give, give_card)}:{side(get, get_card)})")
    return found


HOLDINGS = [
    ((0, 1, 0, 0), (0, 0, 2, 1)),  # offer(S:CCD) among 5
    ((3, 0, 0, 1), (0, 3, 1, 0)),
    ((1, 1, 1, 1), (1, 1, 1, 1)),
    ((2, 2, 2, 2), (2, 2, 2, 2)),
    ((4, 0, 2, 0), (1, 0, 3, 0)),  # shared kinds: H and C may sit on either side, never both
    ((5, 0, 3, 0), (0, 0, 0, 0)),  # nothing to ask for: no proposal
    ((0, 0, 0, 0), (1, 1, 1, 1)),  # nothing to give: no proposal
]


@pytest.mark.parametrize(("mine", "theirs"), HOLDINGS)
def test_r10_3_every_proposal_the_rules_allow_is_listed_once(mine, theirs) -> None:
    st = proposing(res0=mine, res1=theirs)
    offers = listed(st)
    assert len(offers) == len(set(offers))  # no duplicates
    assert set(offers) == reference_proposals(mine, theirs)
    assert len(offers) == proposal_count(mine, theirs)  # the formula of R10.3


def test_r10_3_offer_s_for_ccd_is_listed_with_its_four_smaller_siblings() -> None:
    st = proposing(res0=(0, 1, 0, 0), res1=(0, 0, 2, 1))
    assert [str(m) for m in st.legal_moves()] == ["offer(S:C)", "offer(S:D)", "offer(S:CC)", "offer(S:CD)", "offer(S:CCD)"]
    st.play("offer(S:CCD)")
    st.play("acc")
    assert st.view(None)["board"]["seats"][0]["resources"] == {"H": 0, "S": 0, "C": 2, "D": 1}


def test_r10_3_the_counts_of_typical_holdings() -> None:
    assert proposal_count((1, 1, 1, 1), (1, 1, 1, 1)) == 50
    assert proposal_count((2, 2, 2, 2), (2, 2, 2, 2)) == 464
    assert proposal_count((4, 4, 4, 4), (2, 2, 2, 2)) == 1696
    assert proposal_count((1, 0, 0, 0), (0, 1, 0, 0)) == 1


def test_r10_3_no_listed_offer_is_illegal_and_each_plays() -> None:
    st = proposing(res0=(2, 1, 0, 2), res1=(1, 2, 2, 0))
    before = st.position()
    for move in st.legal_moves():
        if str(move).startswith("offer("):
            st.check_move(move)
            assert st.parse_move(str(move)) == move
    for text in listed(st)[::37]:
        st.play(text)
        assert st.current_player() == 1 and {str(m) for m in st.legal_moves()} == {"acc", "rej"}
        st.undo()
    assert st.position() == before


def test_r10_3_an_unlisted_well_formed_offer_is_refused_with_its_rule() -> None:
    st = proposing(res0=(2, 1, 0, 0), res1=(0, 0, 1, 1))
    assert "offer(HHH:C)" not in listed(st)
    with pytest.raises(IllegalMoveError, match=r"offer\(HHH:C\): you hold only 2 H"):
        st.play("offer(HHH:C)")
    assert "offer(H:CC)" not in listed(st)
    with pytest.raises(IllegalMoveError, match=r"opponent holds only 1 C \(R8.2\)"):
        st.play("offer(H:CC)")


def test_r10_3_the_order_is_stable_and_smaller_gifts_come_first() -> None:
    first = proposing(res0=(2, 0, 1, 0), res1=(0, 2, 0, 1))
    again = TerritoriesGame().state_from_position(first.position())
    assert listed(first) == listed(again) == listed(first)
    sizes = [len(text[6:text.index(":")]) for text in listed(first)]
    assert sizes == sorted(sizes)


def test_r8_2_the_list_stays_complete_until_the_limit_and_then_none_is_announced() -> None:
    st = state(res0=(3, 0, 0, 0), res1=(0, 3, 0, 0))
    play_all(st, "propose offer(H:S) rej propose offer(HH:S) rej propose")
    assert len(listed(st)) == proposal_count((3, 0, 0, 0), (0, 3, 0, 0))  # the third, complete
    play_all(st, "offer(H:SS) rej")
    assert "propose" not in {str(m) for m in st.legal_moves()}


def test_r8_3_option_every_counter_proposal_of_the_responder_is_listed() -> None:
    st = state(TerritoriesGame(counter_offers=True), res0=(2, 0, 0, 0), res1=(0, 2, 1, 0))
    play_all(st, "propose offer(H:S) counter")
    counters = listed(st, "counter")
    assert len(counters) == len(set(counters))
    assert set(counters) == reference_proposals((0, 2, 1, 0), (2, 0, 0, 0), "counter")
    st.play("counter(SSC:HH)")
    assert {str(m) for m in st.legal_moves()} == {"acc", "rej"}  # a counter is not countered


def test_r8_4_option_one_territory_card_per_side_every_such_proposal_listed() -> None:
    game = TerritoriesGame(trade_territories=True)
    st = state(game, res0=(1, 0, 0, 0), res1=(0, 1, 0, 0), hand0="9S,QD", hand1="TS,JD*")
    st.play("propose")
    offers = listed(st)
    # give: H, 9S, QD, H+9S, H+QD (5 sides); get: S, JD, S+JD (3 sides); no kind shared
    assert len(offers) == len(set(offers)) == 5 * 3
    assert "offer(9S:JD)" in offers and "offer(H,9S:S,JD)" in offers
    assert not any("TS" in text for text in offers)  # Black's TS is unknown to White
    with pytest.raises(IllegalMoveError, match="at most 1 territory card on each side"):
        st.play("offer(9S,QD:S)")
    for text in offers:
        st.check_move(st.parse_move(text))


def test_r8_3_option_no_counter_announcement_once_the_limit_is_reached() -> None:
    st = state(TerritoriesGame(counter_offers=True, max_trade_proposals=1), res0=(2, 0, 0, 0), res1=(0, 2, 0, 0))
    play_all(st, "propose offer(H:S)")
    assert {str(m) for m in st.legal_moves()} == {"acc", "rej"}
    with pytest.raises(IllegalMoveError, match="counter: already 1 trade proposals this turn"):
        st.play("counter")


def test_r10_4_a_position_naming_a_proposal_round_trips_and_is_checked() -> None:
    st = proposing(res0=(1, 0, 0, 0), res1=(0, 1, 0, 0))
    text = st.position()
    assert "phase=propose" in text and "proposals=1" in text
    assert TerritoriesGame().state_from_position(text).legal_moves() == st.legal_moves()
    with pytest.raises(PositionError, match=r"field proposals=.*counts toward the limit when announced"):
        TerritoriesGame().state_from_position(text.replace("proposals=1", "proposals=0"))
    with pytest.raises(PositionError, match=r"field phase=.*no trade can be proposed"):
        TerritoriesGame().state_from_position(position(res0=(1, 0, 0, 0), phase="propose", proposals="1"))


@settings(max_examples=60, deadline=None)
@given(
    mine=st_.tuples(*[st_.integers(0, 2)] * 4),
    theirs=st_.tuples(*[st_.integers(0, 2)] * 4),
    hands=st_.sampled_from([("-", "-"), ("9S", "-"), ("-", "QD*"), ("-", "QD"), ("9S", "QD*")]),
    with_cards=st_.booleans(),
)
def test_r8_2_propose_is_listed_exactly_when_some_proposal_exists(mine, theirs, hands, with_cards) -> None:
    st = state(TerritoriesGame(trade_territories=with_cards), res0=mine, res1=theirs, hand0=hands[0], hand1=hands[1])
    own = [hands[0]] if with_cards and hands[0] != "-" else []
    known = [hands[1][:-1]] if with_cards and hands[1].endswith("*") else []
    expected = reference_proposals(mine, theirs, own_cards=own, known_cards=known)
    announced = "propose" in {str(m) for m in st.legal_moves()}
    assert announced == bool(expected)
    if announced:
        st.play("propose")
        offers = [str(m) for m in st.legal_moves()]
        assert len(offers) == len(set(offers)) and set(offers) == expected
