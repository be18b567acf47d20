"""The terminal drawing and the evaluation (agents' and players' windows on the state)."""

from __future__ import annotations

from boardlab.games.territories import TerritoriesGame
from tests.territories.helpers import play_all, state


def test_render_shows_grid_buildings_hands_and_the_decision() -> None:
    st = state(buildings={(1, 1): "0Q", (3, 3): "1P"}, hand0="9S", hand1="QD", res0=(1, 2, 0, 0))
    text = st.render(0)
    assert "8H" in text and "QC" in text  # grid cards
    assert "[bold yellow]Q[/]" in text and "[bold cyan]p[/]" in text  # White's Palace, Black's Town
    assert "9S" in text and "QD" not in text and "??" in text  # own card shown, opponent's hidden
    assert "White acts" in text
    spectator = st.render(None)
    assert "9S" not in spectator


def test_render_names_a_pending_trade_and_who_answers() -> None:
    st = state(res0=(2, 0, 0, 0), res1=(0, 1, 0, 0))
    play_all(st, "propose offer(HH:S)")
    text = TerritoriesGame().render_view(st.view(1))
    assert "White gives HH for S" in text and "Black answers the trade proposal" in text
    # what the answer may be, in words (R8.3: countering only where counter-offers are on)
    assert "answers the trade proposal: accept it, reject it" in text and "acc / rej" not in text
    assert "counter it" not in text


def test_evaluate_favours_points_and_income_and_sums_to_one() -> None:
    even = state(buildings={(1, 1): "0P", (3, 3): "1P"})
    ahead = state(buildings={(1, 1): "0R", (2, 2): "0P", (3, 3): "1P"})
    e, a = even.evaluate(), ahead.evaluate()
    assert abs(sum(e) - 1) < 1e-9 and abs(sum(a) - 1) < 1e-9
    assert abs(e[0] - e[1]) < 0.2 < a[0] - a[1]


def test_evaluate_at_the_end_is_the_result() -> None:
    st = state()
    play_all(st, "end r1+1 end r1+1 end")  # White had no buildings for two turns
    assert st.is_over() and st.evaluate() == [0.0, 1.0]


def test_every_rule_number_cited_by_the_code_and_tests_is_in_the_rules_document() -> None:
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    document = (root / "docs" / "rules" / "territories.md").read_text(encoding="utf-8")
    defined = set(re.findall(r"\*\*(R\d+\.\d+)\b", document)) | set(re.findall(r"^## (R\d+)\b", document, re.M))
    sources = list((root / "boardlab" / "games" / "territories").glob("*.py"))
    sources += list((root / "tests" / "territories").glob("test_*.py"))
    cited = set()
    for path in sources:
        text = path.read_text(encoding="utf-8")
        cited |= set(re.findall(r"\b(R\d+\.\d+)\b", text))
        cited |= {f"R{a}.{b}" for a, b in re.findall(r"test_r(\d+)_(\d+)_", text)}
    assert cited and cited <= defined, sorted(cited - defined)


def test_r5_1_render_explains_the_building_letters_and_shows_each_hand_against_the_limit() -> None:
    # White: 3 resources + 1 territory card = 4 cards in hand (R5.1); Black: 8 resources + 1 card.
    st = state(buildings={(1, 1): "0Q", (3, 3): "1P"}, hand0="9S", hand1="QD", res0=(1, 2, 0, 0),
               res1=(2, 2, 2, 2))
    text = st.render(1)
    assert "White upper case, Black lower case" in text
    assert "hand 4/7" in text and "hand 9/7" in text
    assert st.view(1)["board"]["seats"][0]["hand_size"] == 4
    limited = state(TerritoriesGame(hand_limit_counts="resources_only", hand_limit=5), hand1="QD",
                    res1=(2, 2, 2, 2))
    assert "hand 8/5" in limited.render(None)  # territory cards do not count under the option


def test_r3_3_the_setup_prompt_says_which_towns_collect() -> None:
    st = TerritoriesGame().new_state(seed=2)
    while st.view(None)["board"]["phase"] != "setup":
        st.apply(st.sample_chance())
    assert "collects" not in st.view(None)["board"]["decision"]
    play_all(st, "P@1,1 P@2,2")
    assert "collects 1 resource per touching card" in st.view(None)["board"]["decision"]


def test_r8_2_an_open_proposal_is_worth_the_responders_better_answer() -> None:
    st = state(buildings={(1, 1): "0P", (3, 3): "1P"}, res0=(4, 0, 0, 0), res1=(0, 4, 0, 0))
    before = st.evaluate()
    generous = st.copy()
    play_all(generous, "propose offer(HHHH:S)")  # Black gains: the estimate takes Black's acceptance
    accepted = generous.copy()
    accepted.play("acc")
    assert generous.evaluate() == accepted.evaluate() and generous.evaluate()[0] < before[0]
    greedy = st.copy()
    play_all(greedy, "propose offer(H:SSSS)")  # Black loses: the estimate takes Black's rejection
    assert greedy.evaluate() == before
