// The engine's analysis of a finished game in the replay panel (docs/analysis.md): a graph of
// each seat's chances over the game (inline SVG; a click on it shows that position), what the
// engine thought of the position shown and the next move, and the moves that lost the most.
//
// Colour never carries meaning alone: each seat's line has its own dash pattern, the legend
// names it, and every number the graph shows is also written out as text.

import { h, svg } from "./dom.js";

const WIDTH = 300;
const HEIGHT = 162;
const LEFT = 34;
const RIGHT = 8;
const TOP = 8;
const BOTTOM = 32; // a row of "?" marks under the plot, the axis' words under them
// four seats at most; dark enough on white, and told apart by the dash as well
const COLOURS = ["#1f5fbf", "#b03a2e", "#1e7b45", "#7d3c98"];
const DASHES = [null, "7 4", "2 3", "9 3 2 3"];

const percent = (chance) => `${Math.round(chance * 100)}%`;

/** Every seat's chances at the start (index 0) and after each turn of the log. */
export function series(analysis) {
  return [analysis.start, ...analysis.moves.map((move) => move.chances)];
}

/**
 * `counted[k]`: how many moves the players made in the first `k` turns of `log`, the one
 * numbering (a roll or a deal is no move): the position after turn k is "after move counted[k]".
 */
export function movesCounted(log) {
  const counted = [0];
  for (const turn of log) counted.push(counted.at(-1) + (turn.by === "chance" ? 0 : 1));
  return counted;
}

/** "White 55% · Black 45%" */
export function chancesText(chances, names) {
  return chances.map((chance, seat) => `${names[seat]} ${percent(chance)}`).join(" · ");
}

/** "the start", "after move 12", "after move 12 and chance (5+3)": the position after turn k. */
export function positionName(log, counted, k) {
  const turn = log[k - 1];
  const base = counted[k] === 0 ? "the start" : `after move ${counted[k]}`;
  return turn && turn.by === "chance" ? `${base} and chance (${turn.text})` : base;
}

/**
 * The graph: a line per seat from move 0 to the end, the position shown marked, and one
 * clickable column per position (`data-move`), each with a tooltip of its numbers.
 */
export function graph(analysis, names, shown, onPick, log) {
  const points = series(analysis);
  const total = points.length - 1;
  const counted = movesCounted(log);
  const plotWidth = WIDTH - LEFT - RIGHT;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const x = (number) => LEFT + (total ? (number * plotWidth) / total : plotWidth / 2);
  const y = (chance) => TOP + (1 - chance) * plotHeight;
  const step = total ? plotWidth / total : plotWidth;
  const parts = [];
  for (const level of [0, 0.5, 1]) {
    parts.push(
      svg("line", { x1: LEFT, x2: WIDTH - RIGHT, y1: y(level), y2: y(level), stroke: "#d5dae2", "stroke-width": 1 }),
      svg("text", { x: LEFT - 4, y: y(level) + 4, "text-anchor": "end", "font-size": 10, fill: "#5e6878" }, percent(level)),
    );
  }
  parts.push(
    svg("text", { x: LEFT, y: HEIGHT - 5, "font-size": 10, fill: "#5e6878" }, "start"),
    svg("text", { x: WIDTH - RIGHT, y: HEIGHT - 5, "text-anchor": "end", "font-size": 10, fill: "#5e6878" }, `move ${counted[total]}`),
  );
  // the marks have a row of their own, between the plot and the axis' words: never over them
  for (const number of analysis.worst || []) {
    parts.push(svg("text", {
      x: x(number), y: TOP + plotHeight + 13, "text-anchor": "middle", "font-size": 11, "font-weight": "bold", fill: "#b03a2e",
      class: "analysis-worst-mark",
    }, "?", svg("title", {}, `move ${counted[number]}: one of the moves that lost the most`)));
  }
  names.forEach((name, seat) => {
    const path = points.map((chances, number) => `${x(number).toFixed(1)},${y(chances[seat]).toFixed(1)}`).join(" ");
    parts.push(svg("polyline", {
      points: path, fill: "none", stroke: COLOURS[seat % COLOURS.length], "stroke-width": 2,
      "stroke-dasharray": DASHES[seat % DASHES.length], "stroke-linejoin": "round", class: "analysis-line",
      dataset: { seat },
    }, svg("title", {}, `${name}'s chances`)));
  });
  if (shown !== null && shown !== undefined && shown <= total) {
    parts.push(svg("line", {
      x1: x(shown), x2: x(shown), y1: TOP, y2: TOP + plotHeight, stroke: "#222", "stroke-width": 1, class: "analysis-shown",
    }));
    names.forEach((_name, seat) => parts.push(svg("circle", {
      cx: x(shown), cy: y(points[shown][seat]), r: 3.5, fill: COLOURS[seat % COLOURS.length], stroke: "#fff", "stroke-width": 1,
    })));
  }
  // the click targets come last, over everything: one column per position
  points.forEach((chances, number) => {
    const label = positionName(log, counted, number);
    parts.push(svg("rect", {
      x: x(number) - step / 2, y: TOP, width: step, height: plotHeight, fill: "#000", "fill-opacity": 0,
      class: `analysis-point${number === shown ? " current" : ""}`, dataset: { move: number },
      onclick: () => onPick(number),
    }, svg("title", {}, `${label}: ${chancesText(chances, names)}`)));
  });
  return svg("svg", {
    id: "analysis-graph", class: "analysis-graph", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img",
    "aria-label": `Each player's chances over the game, by the engine: ${names.map((name, seat) =>
      `${name} from ${percent(points[0][seat])} to ${percent(points[total][seat])}`).join("; ")}. Click a point to see that position.`,
  }, parts);
}

/** The legend: each seat's line sample and name. */
export function legend(names) {
  return h("ul", { class: "analysis-legend" }, names.map((name, seat) => h("li", {},
    svg("svg", { width: 28, height: 10, viewBox: "0 0 28 10", "aria-hidden": "true" },
      svg("line", {
        x1: 1, x2: 27, y1: 5, y2: 5, stroke: COLOURS[seat % COLOURS.length], "stroke-width": 2,
        "stroke-dasharray": DASHES[seat % DASHES.length],
      })),
    name)));
}

/** What the engine thinks of position `shown` and of the move played from it. */
export function positionText(analysis, names, shown, log) {
  const points = series(analysis);
  const name = positionName(log, movesCounted(log), shown);
  const here = name[0].toUpperCase() + name.slice(1);
  const lines = [`${here}: ${chancesText(points[shown], names)}.`];
  // a match that ended outside the rules says how, after its last move (which it does not blame)
  if (analysis.ending && shown === analysis.moves.length) lines.push(`${analysis.ending}.`);
  const next = analysis.moves[shown];
  if (next && next.by !== "chance") {
    // a game's own words carry their verb ("announces a Swap"); notation is "played" ("played b7S")
    const words = next.text && next.text !== next.move;
    const played = words ? `${names[next.by]}: ${next.text}` : `${names[next.by]} played ${next.move}`;
    if (next.preferred && next.preferred !== next.move) {
      const loss = next.loss >= 0.005 ? ` (it lost ${next.loss.toFixed(2)} of a win)` : "";
      lines.push(`Next, ${played}; the engine preferred${words ? ":" : ""} ${next.preferred_text || next.preferred}${loss}.`);
    } else {
      lines.push(`Next, ${played}, the engine's choice too.`);
    }
  }
  return lines.join(" ");
}

/** The moves that lost the most, worst first; each shows the position it was played in. */
export function worstList(analysis, names, onPick, log) {
  const points = series(analysis);
  const counted = movesCounted(log);
  if (!analysis.worst || !analysis.worst.length) {
    return h("p", { id: "analysis-worst", class: "muted" }, "No move lost much by the engine's estimate.");
  }
  return h("ol", { id: "analysis-worst", class: "analysis-worst" }, analysis.worst.map((number) => {
    const move = analysis.moves[number - 1];
    const before = points[number - 1][move.by];
    const after = move.chances[move.by];
    return h("li", {},
      h("button", {
        type: "button", class: "link", dataset: { move: number - 1 },
        title: "show the position where this move was played",
        onclick: () => onPick(number - 1),
      }, `Move ${counted[number]}, ${names[move.by]}: ${move.text || move.move}`),
      ` (${percent(before)} → ${percent(after)}); the engine preferred${move.text && move.text !== move.move ? ":" : ""} `
      + `${move.preferred_text || move.preferred} (loss ${move.loss.toFixed(2)})`);
  }));
}
