"""What every game's PNG picture (``render_image.py``) shares: matplotlib, imported only when a
picture is drawn so that the core stays standard-library, and the picture's heading.

The drawings themselves are each game's own; ``boardlab render`` and ``picture on`` in
``boardlab play`` find them (docs/api.md, "Adding a game").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import BoardlabError


def pyplot(game_id: str) -> Any:
    """matplotlib's pyplot on the file-only Agg backend; BoardlabError naming the extra when
    matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise BoardlabError(f"{game_id} pictures need matplotlib: pip install 'boardlab[plot]'") from None
    return plt


def picture_title(game_name: str, envelope: Mapping[str, Any]) -> str:
    """A picture's heading, numbered as the terminal numbers moves: "move N" is the move to
    play next; a finished game says who won after how many moves. A caller that knows the
    players' moves made puts them in the envelope as ``moves_made`` (chance outcomes, a deal
    or a roll, are no moves); without it the ply counts them too."""
    names = envelope["seat_names"]
    made = envelope.get("moves_made", envelope["ply"])
    result = envelope.get("result")
    if result:
        winners = result.get("winners") or []
        ending = "won by " + ", ".join(names[p] for p in winners) if winners else "a draw"
        return f"{game_name}, after move {made}: {ending}"
    title = f"{game_name}, move {made + 1}"
    if envelope.get("to_move") is not None:
        title += f", {names[envelope['to_move']]} to move"
    return title


__all__ = ["picture_title", "pyplot"]
