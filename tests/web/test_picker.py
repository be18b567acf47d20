"""The move picker (static/js/picker.js), run in the browser: which keys it offers after each
click, when a move is complete, when it must ask which move, and how a stray click restarts."""

from __future__ import annotations

from typing import Any

PICK = """
async (clicks) => {
  const { MovePicker } = await import("/js/picker.js");
  const moves = [
    { text: "a+", path: ["a", "a"] },
    { text: "aN", path: ["a", "b"] },
    { text: "c-d^e", path: ["c", "d", "e"] },
    { text: "c-d^^e", path: ["c", "d", "e"] },
    { text: "c-d^f", path: ["c", "d", "f"] },
    { text: "typed only", path: null },
  ];
  const picker = new MovePicker((move) => move.path);
  picker.setMoves(moves);
  const seen = [[...picker.targets().keys()].sort()];
  for (const key of clicks) {
    const result = picker.click(key);
    seen.push({
      result: result && (result.play ? `play ${result.play.text}` : `choose ${result.choose.map((m) => m.text).join(",")}`),
      selected: picker.selected,
      next: [...picker.targets().keys()].sort(),
    });
  }
  return seen;
}
"""


def pick(page: Any, clicks: list[str]) -> list[Any]:
    page.goto("/favicon.svg")
    return list(page.evaluate(PICK, clicks))


def test_the_first_keys_are_where_moves_start(page: Any) -> None:
    assert pick(page, [])[0] == ["a", "c"]  # a move without a click path is left to the notation box


def test_a_path_of_clicks_names_one_move(page: Any) -> None:
    steps = pick(page, ["a", "b"])
    assert steps[1] == {"result": None, "selected": ["a"], "next": ["a", "b"]}
    assert steps[2] == {"result": "play aN", "selected": [], "next": ["a", "c"]}
    assert pick(page, ["a", "a"])[2]["result"] == "play a+"  # the same key twice


def test_moves_with_the_same_clicks_are_offered_to_choose(page: Any) -> None:
    steps = pick(page, ["c", "d", "e"])
    assert steps[2]["next"] == ["e", "f"]
    assert steps[3]["result"] == "choose c-d^e,c-d^^e"
    assert pick(page, ["c", "d", "f"])[3]["result"] == "play c-d^f"


def test_a_click_off_the_targets_restarts_from_it_or_clears(page: Any) -> None:
    steps = pick(page, ["a", "c", "z"])
    assert steps[2] == {"result": None, "selected": ["c"], "next": ["d"]}  # another piece: its moves
    assert steps[3] == {"result": None, "selected": [], "next": ["a", "c"]}  # nothing there: cleared
