// The Lab page: a form that starts a study (game, computer players, options, the options to
// vary, games per variant), and the studies on this server with their progress, verdict and
// report. The server plays studies in turn at low priority (docs/lab.md, "The Lab in the browser").

import * as api from "./api.js";
import { h, replace } from "./dom.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 1500;
let catalog = [];
let limits = null;
let polling = null;

async function start() {
  try {
    [catalog, limits] = await Promise.all([api.games(), api.request("/api/lab/limits")]);
  } catch (error) {
    replace($("lab-form"), h("p", { class: "alert" }, error.message));
    return;
  }
  $("lab-limits").textContent =
    `This server plays at most ${limits.max_games_per_variant} games per variant, ${limits.max_variants} variants ` +
    `and ${limits.max_total_games} games in a study, ${limits.max_running} study at a time.`;
  const asked = new URLSearchParams(location.search).get("game");
  drawForm(catalog.some((game) => game.id === asked) ? asked : "towers");
  await drawStudies();
}

function drawForm(gameId) {
  const game = catalog.find((entry) => entry.id === gameId) || catalog[0];
  const gameSelect = h("select", { id: "lab-game", name: "game", onchange: (event) => drawForm(event.target.value) },
    catalog.map((entry) => h("option", { value: entry.id, selected: entry.id === game.id }, entry.name)));
  const players = h("select", { id: "lab-players", name: "players" },
    game.player_counts.map((count) => h("option", { value: count, selected: count === (game.default_players || game.min_players) }, String(count))));
  const levels = h("select", { id: "lab-agents", name: "agents" },
    game.levels.map((level) => h("option", { value: level.level, selected: level.level === "easy" },
      `${level.level}: ${level.agent}${level.rating ? ` (${level.rating} Elo)` : ""}`)));
  const specs = h("input", { id: "lab-specs", name: "specs", size: 40, placeholder: "or agent specs, e.g. greedy,mcts:iterations=60" });
  const rows = game.options.map((option) => h("tr", {},
    h("th", { scope: "row" }, option.name),
    h("td", {}, optionInput(option)),
    h("td", {}, h("input", { dataset: { vary: option.name }, size: 24, placeholder: "values to compare, e.g. a,b", "aria-label": `vary ${option.name}` })),
    h("td", { class: "help" }, option.help)));
  replace($("lab-form"),
    h("div", { class: "lab-row" },
      h("label", {}, "Game", gameSelect),
      h("label", {}, "Players", players),
      h("label", {}, "Computer in every seat", levels),
      h("label", {}, "Agents (optional)", specs)),
    game.options.length ? h("table", { class: "lab-options" },
      h("tr", {}, h("th", {}, "option"), h("th", {}, "value"), h("th", {}, "vary"), h("th", {}, "what it does")), rows) : null,
    h("div", { class: "lab-row" },
      h("label", {}, "Games per variant", h("input", { id: "lab-games", type: "number", min: 1, max: limits.max_games_per_variant, value: 20 })),
      h("label", {}, "Seed", h("input", { id: "lab-seed", type: "number", min: 0, value: 0 })),
      h("button", { id: "lab-start", class: "primary", type: "submit" }, "Start the study")));
  $("lab-form").onsubmit = (event) => { event.preventDefault(); submit(game); };
}

function optionInput(option) {
  const attrs = { dataset: { option: option.name }, "aria-label": option.name };
  if (option.choices) {
    return h("select", attrs, option.choices.map((choice) => h("option", { value: choice, selected: choice === option.default }, String(choice))));
  }
  if (typeof option.default === "boolean") {
    return h("select", attrs, [true, false].map((value) => h("option", { value: String(value), selected: value === option.default }, String(value))));
  }
  return h("input", { ...attrs, value: option.default === null ? "" : String(option.default), size: 10 });
}

async function submit(game) {
  const alert = $("lab-alert");
  alert.hidden = true;
  const options = {};
  const vary = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    const option = game.options.find((entry) => entry.name === input.dataset.option);
    if (input.value !== "" && input.value !== String(option.default)) options[option.name] = input.value;
  }
  for (const input of document.querySelectorAll("[data-vary]")) {
    const values = input.value.split(",").map((value) => value.trim()).filter(Boolean);
    if (values.length) {
      vary[input.dataset.vary] = values;
      delete options[input.dataset.vary];
    }
  }
  const specs = $("lab-specs").value.trim();
  const body = {
    game: game.id,
    players: Number($("lab-players").value),
    agents: specs ? splitSpecs(specs) : [$("lab-agents").value],
    options,
    vary,
    games: Number($("lab-games").value),
    seed: Number($("lab-seed").value || 0),
  };
  try {
    await api.request("/api/lab/studies", { method: "POST", body });
  } catch (error) {
    alert.textContent = error.message;
    alert.hidden = false;
    return;
  }
  await drawStudies();
}

/** "greedy,mcts:iterations=60,c=1" -> ["greedy", "mcts:iterations=60,c=1"] (as the command line splits them). */
function splitSpecs(text) {
  const specs = [];
  for (const part of text.split(",").map((piece) => piece.trim()).filter(Boolean)) {
    if (specs.length && part.includes("=") && !part.includes(":") && specs.at(-1).includes(":")) specs[specs.length - 1] += "," + part;
    else specs.push(part);
  }
  return specs;
}

async function drawStudies() {
  let studies;
  try {
    studies = await api.request("/api/lab/studies");
  } catch (error) {
    replace($("lab-studies"), h("p", { class: "alert" }, error.message));
    return schedule(true);
  }
  replace($("lab-studies"), studies.length ? studies.map(studyCard) : h("p", { class: "muted" }, "No study yet."));
  schedule(studies.some((study) => ACTIVE.includes(study.state)));
}

function schedule(again) {
  clearTimeout(polling);
  if (again) polling = setTimeout(drawStudies, POLL_MS);
}

const STATE_TEXT = {
  queued: "waiting its turn", running: "playing", stopping: "stopping", finished: "finished",
  stopped: "stopped: the verdict covers the games played", failed: "failed",
};
/** the states the page follows until they end */
const ACTIVE = ["queued", "running", "stopping"];

/** Stop or continue a study (POST .../stop, .../continue), then redraw the list. */
async function act(study, action) {
  const alert = $("lab-alert");
  alert.hidden = true;
  try {
    await api.request(`/api/lab/studies/${study.id}/${action}`, { method: "POST" });
  } catch (error) {
    alert.textContent = error.message;
    alert.hidden = false;
  }
  await drawStudies();
}

function studyButtons(study) {
  if (study.state === "queued" || study.state === "running") {
    return h("button", { class: "stop", type: "button", onclick: () => act(study, "stop") }, "Stop");
  }
  if (study.state === "stopped") {
    return h("button", { class: "continue", type: "button", onclick: () => act(study, "continue") }, "Continue");
  }
  return null;
}

function studyCard(study) {
  const game = catalog.find((entry) => entry.id === study.game);
  const varied = Object.entries(study.vary).map(([name, values]) => `${name}: ${values.join(", ")}`).join("; ");
  const options = Object.entries(study.options).map(([name, value]) => `${name}=${value}`).join(", ");
  return h("article", { class: "lab-study", dataset: { study: study.id, state: study.state } },
    h("h3", {}, `${game ? game.name : study.game}: ${study.agents.join(", ")}, ${study.games} games per variant`),
    h("p", { class: "muted" }, [varied ? `compares ${varied}` : "one variant", options ? `; options ${options}` : "", `; seed ${study.seed}`].join("")),
    h("p", {},
      h("span", { class: "state" }, STATE_TEXT[study.state] || study.state), " ",
      h("progress", { max: study.total, value: study.done, "aria-label": "games played" }), " ",
      h("span", { class: "count" }, `${study.done} of ${study.total} games`), " ",
      studyButtons(study)),
    study.error ? h("p", { class: "alert" }, study.error) : null,
    study.verdict.length ? h("ul", { class: "verdict" }, study.verdict.map((line) => h("li", {}, line))) : null,
    study.report ? h("p", {}, h("a", { class: "report", href: study.report }, "Open the report (games to look at, openings, plots)")) : null);
}

start();
