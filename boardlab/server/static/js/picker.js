// Choosing a move by clicking, for every game alike. A renderer says which board elements a
// move is clicked through (its "click path": a piece, then a target, sometimes a third
// square); the picker keeps the clicks made so far and tells the renderer which keys may be
// clicked next, so that clicking a piece highlights exactly its legal moves.

export class MovePicker {
  /** `clickPath(move)` gives a move's keys in click order, or null for a move not clicked on the board. */
  constructor(clickPath) {
    this.clickPath = clickPath;
    this.paths = [];
    this.selected = [];
  }

  /** New legal moves (a new position): the selection starts again. */
  setMoves(moves) {
    this.paths = [];
    for (const move of moves || []) {
      const path = this.clickPath ? this.clickPath(move) : null;
      if (Array.isArray(path) && path.length) this.paths.push({ move, path: path.map(String) });
    }
    this.selected = [];
  }

  reset() {
    this.selected = [];
  }

  /** The moves whose path starts with `prefix`. */
  _following(prefix) {
    return this.paths.filter(({ path }) => prefix.every((key, i) => path[i] === key));
  }

  /** Map key -> moves: the keys that may be clicked next, and the moves going through each. */
  targets() {
    const next = new Map();
    const depth = this.selected.length;
    for (const { move, path } of this._following(this.selected)) {
      if (path.length <= depth) continue;
      const key = path[depth];
      if (!next.has(key)) next.set(key, []);
      next.get(key).push(move);
    }
    return next;
  }

  /**
   * A click on `key`. Returns {play: move} when the clicks name one move, {choose: [moves]}
   * when they name several (the page asks which), otherwise null (the selection changed).
   * A key that is no target starts a new selection from it, or clears the selection.
   */
  click(key) {
    key = String(key);
    if (!this.targets().has(key)) {
      this.selected = [];
      if (!this.targets().has(key)) return null;
    }
    this.selected = [...this.selected, key];
    const candidates = this._following(this.selected);
    const complete = candidates.filter(({ path }) => path.length === this.selected.length);
    const longer = candidates.length - complete.length;
    if (complete.length === 1 && !longer) {
      this.selected = [];
      return { play: complete[0].move };
    }
    if (complete.length && !longer) return { choose: complete.map(({ move }) => move) };
    if (complete.length) return { choose: complete.map(({ move }) => move), more: true };
    return null;
  }
}
