// The Lab page: a form that starts a study (game, computer players, options, the options to
// vary, games per variant), and the studies on this server with their progress, verdict and
// report. The Lab is the designers' (docs/lab.md, "The Lab in the browser"): without a designer
// key the page asks for one (a browser on the computer of a server on 127.0.0.1 needs none);
// an admin also issues keys here. The server plays studies in turn at low priority. A finished
// study's owner can add games to it: the games played are kept and only the new ones are played.

import * as api from "./api.js";
import { h, replace } from "./dom.js";

const $ = (id) => document.getElementById(id);
const POLL_MS = 1500;
let catalog = [];
let limits = null;
let polling = null;
let me = null;
// the list is redrawn every POLL_MS while a study plays: what a designer typed into a finished
// study's "more games" field, and the refusal it got, must outlive those redraws
const typedMoreGames = new Map();
const moreGamesAlerts = new Map();
// the report's "Back to the Lab" link names its study (#study-ID): shown once the list is drawn
let scrolledToAsked = false;

async function start() {
  try {
    me = await api.request("/api/designers/me");
  } catch (error) {
    if (error.code === "designer_key_missing" || error.code === "bad_designer_key") return askToSignIn(error);
    replace($("lab-who"), h("p", { class: "alert" }, error.message));
    return;
  }
  try {
    [catalog, limits] = await Promise.all([api.games(), api.request("/api/lab/limits")]);
  } catch (error) {
    replace($("lab-who"), h("p", { class: "alert" }, error.message));
    return;
  }
  drawWho();
  $("lab-start-panel").hidden = false;
  $("lab-studies-panel").hidden = false;
  $("lab-limits").textContent =
    `This server plays at most ${limits.max_games_per_variant} games per variant, ${limits.max_variants} variants ` +
    `and ${limits.max_total_games} games in a study, ${limits.max_running} study at a time; each designer may queue ` +
    `${limits.queued_games_per_designer} games and about ${Math.round(limits.cpu_seconds_per_designer / 60)} CPU minutes, ` +
    `and a decision may take ${limits.decision_seconds} s.`;
  const asked = new URLSearchParams(location.search).get("game");
  drawForm(catalog.some((game) => game.id === asked) ? asked : "towers");
  if (me.admin) await drawDesigners();
  await drawStudies();
}

/** Not signed in (or a key that no longer works): the sign-in form, and nothing else. */
function askToSignIn(error) {
  $("lab-sign-in").hidden = false;
  if (error.code === "bad_designer_key") showAlert($("lab-sign-in-alert"), error.message);
  $("lab-sign-in-form").onsubmit = async (event) => {
    event.preventDefault();
    try {
      await api.request("/api/designers/session", { method: "POST", body: { key: $("lab-key").value } });
    } catch (failure) {
      showAlert($("lab-sign-in-alert"), failure.message);
      return;
    }
    location.reload();
  };
}

function drawWho() {
  const who = me.local
    ? "You use the Lab on the server's own computer, as its admin (no key needed here)."
    : `Signed in as ${me.name}${me.admin ? " (admin)" : ""}.`;
  const signOut = me.local ? null : h("button", { id: "lab-sign-out", type: "button", onclick: signOutNow }, "Sign out");
  replace($("lab-who"), h("p", {}, who, " ", signOut));
}

async function signOutNow() {
  await api.request("/api/designers/session", { method: "DELETE" }).catch(() => null);
  location.reload();
}

function showAlert(element, message) {
  element.textContent = message;
  element.hidden = false;
}

/** An admin's panel: issue a key (shown once), and revoke the others'. */
async function drawDesigners() {
  $("lab-designers").hidden = false;
  $("lab-issue-form").onsubmit = async (event) => {
    event.preventDefault();
    const issued = $("lab-issued");
    try {
      const made = await api.request("/api/designers", {
        method: "POST", body: { name: $("lab-designer-name").value, admin: $("lab-designer-admin").checked },
      });
      replace(issued, `${made.name}'s key (shown this once; give it to them): `, h("code", { id: "lab-new-key" }, made.key));
    } catch (error) {
      replace(issued, h("span", { class: "alert" }, error.message));
    }
    issued.hidden = false;
    await drawDesignerList();
  };
  await drawDesignerList();
}

async function drawDesignerList() {
  const designers = await api.request("/api/designers").catch(() => []);
  replace($("lab-designer-list"), designers.map((designer) => h("li", { dataset: { designer: designer.id } },
    `${designer.name}${designer.admin ? " (admin)" : ""}`,
    designer.revoked ? " (revoked)" : designer.created_by
      ? h("button", { type: "button", class: "revoke", onclick: () => revoke(designer) }, "Revoke")
      : " (the admin key of a data folder)")));
}

async function revoke(designer) {
  await api.request(`/api/designers/${encodeURIComponent(designer.id)}`, { method: "DELETE" }).catch((error) => alert(error.message));
  await drawDesignerList();
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
    // the table scrolls inside its own box on a narrow screen: the page itself never does
    game.options.length ? h("div", { class: "lab-options-box" }, h("table", { class: "lab-options" },
      h("tr", {}, h("th", {}, "option"), h("th", {}, "value"), h("th", {}, "vary"), h("th", {}, "what it does")), rows)) : null,
    h("div", { class: "lab-row" },
      h("label", {}, "Games per variant", h("input", { id: "lab-games", type: "number", min: 1, max: limits.max_games_per_variant, value: 20 })),
      h("label", {}, "Seed", h("input", { id: "lab-seed", type: "number", min: 0, value: 0 })),
      h("button", { id: "lab-start", class: "primary", type: "submit" }, "Start the study")));
  $("lab-form").onsubmit = (event) => { event.preventDefault(); submit(game); };
  // the browser refuses a field itself (games 0) without a submit: the last refusal is stale then
  $("lab-form").addEventListener("invalid", hideAlert, true);
}

function hideAlert() {
  $("lab-alert").hidden = true;
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
    if (input.value !== "" && input.value !== String(option.default)) options[option.name] = typed(option, input.value);
  }
  for (const input of document.querySelectorAll("[data-vary]")) {
    const option = game.options.find((entry) => entry.name === input.dataset.vary);
    const values = input.value.split(",").map((value) => value.trim()).filter(Boolean);
    if (values.length) {
      vary[option.name] = values.map((value) => typed(option, value));
      delete options[option.name];
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

/** A value typed into the form, as the option's own JSON type (the server refuses "0" for a
 * number and "true" for a switch): what is not a number stays text, for the server to name. */
function typed(option, text) {
  const kind = option.default === null ? null : typeof option.default;
  if (kind === "boolean") return text === "true" ? true : text === "false" ? false : text;
  if (kind === "number" && text.trim() !== "" && Number.isFinite(Number(text))) return Number(text);
  return text;
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
  if (!scrolledToAsked && location.hash.startsWith("#study-")) {
    scrolledToAsked = true;
    document.getElementById(location.hash.slice(1))?.scrollIntoView();
  }
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
  if (!study.may_manage) return null;
  const buttons = [];
  if (study.state === "queued" || study.state === "running") {
    buttons.push(h("button", { class: "stop", type: "button", onclick: () => act(study, "stop") }, "Stop"));
  }
  if (study.state === "stopped") {
    buttons.push(h("button", { class: "continue", type: "button", onclick: () => act(study, "continue") }, "Continue"));
  }
  if (study.state !== "stopping") {
    buttons.push(h("button", { class: "delete", type: "button", onclick: () => remove(study) }, "Delete"));
  }
  return buttons;
}

/** The games the verdict says would settle a question ("about 90 more games would settle ..."),
 * the most it names, within what the server allows; else as many again as the study has. */
function suggestedMoreGames(study) {
  const wanted = study.games_to_settle ?? study.games;
  return Math.max(1, Math.min(wanted, study.more_games_allowed));
}

/** A finished study's own form: add games to it (POST .../extend); the games it holds are kept. */
function moreGamesForm(study) {
  if (!study.may_manage || study.state !== "finished") return null;
  if (!study.more_games_allowed) {
    return h("p", { class: "muted more-games" },
      "This study is as large as this server's Lab plays; boardlab lab on your own machine plays larger ones.");
  }
  const count = h("input", {
    id: `more-games-${study.id}`, class: "more-games-count", type: "number", min: 1, max: study.more_games_allowed,
    required: true, value: typedMoreGames.get(study.id) ?? suggestedMoreGames(study),
    oninput: (event) => typedMoreGames.set(study.id, event.target.value),
  });
  const alert = moreGamesAlerts.get(study.id);
  const perVariant = study.variants.length > 1 ? " per variant" : "";
  return h("form", { class: "more-games", onsubmit: (event) => { event.preventDefault(); addGames(study, count.value); } },
    h("div", { class: "lab-row" },
      h("label", {}, `More games${perVariant}`, count),
      h("button", { class: "add-games", type: "submit" }, "Add games"),
      h("span", { class: "muted" }, `the ${study.done} games played are kept; at most ${study.more_games_allowed} more${perVariant}`)),
    alert ? h("p", { class: "alert", role: "alert" }, alert) : null);
}

async function addGames(study, text) {
  moreGamesAlerts.delete(study.id);
  try {
    // as typed: the server names a count that is not a whole number rather than the page rounding it
    const games = text.trim() !== "" && Number.isFinite(Number(text)) ? Number(text) : text;
    await api.request(`/api/lab/studies/${study.id}/extend`, { method: "POST", body: { games } });
    typedMoreGames.delete(study.id);
  } catch (error) {
    moreGamesAlerts.set(study.id, error.message);
  }
  await drawStudies();
}

/** Delete a study (DELETE .../studies/ID), after the designer confirms. */
async function remove(study) {
  if (!confirm(`Delete this study of ${study.game}, its games and its report?`)) return;
  const alert = $("lab-alert");
  alert.hidden = true;
  try {
    await api.request(`/api/lab/studies/${study.id}`, { method: "DELETE" });
  } catch (error) {
    showAlert(alert, error.message);
  }
  await drawStudies();
}

function studyCard(study) {
  const game = catalog.find((entry) => entry.id === study.game);
  const varied = Object.entries(study.vary).map(([name, values]) => `${name}: ${values.join(", ")}`).join("; ");
  const options = Object.entries(study.options).map(([name, value]) => `${name}=${value}`).join(", ");
  return h("article", { id: `study-${study.id}`, class: "lab-study", dataset: { study: study.id, state: study.state } },
    h("h3", {}, `${game ? game.name : study.game}: ${study.agents.join(", ")}, ${study.games} games per variant`),
    h("p", { class: "muted" }, [varied ? `compares ${varied}` : "one variant", options ? `; options ${options}` : "", `; seed ${study.seed}`,
      study.owner ? `; started by ${study.owner}` : "",
      study.added_games ? `; ${study.added_games} games per variant added since` : ""].join("")),
    h("p", {},
      h("span", { class: "state" }, STATE_TEXT[study.state] || study.state), " ",
      h("progress", { max: study.total, value: study.done, "aria-label": "games played" }), " ",
      h("span", { class: "count" }, `${study.done} of ${study.total} games`), " ",
      studyButtons(study)),
    study.error ? h("p", { class: "alert" }, study.error) : null,
    study.verdict.length ? h("ul", { class: "verdict" }, study.verdict.map((line) => h("li", {}, line))) : null,
    study.report ? h("p", {}, h("a", { class: "report", href: study.report }, "Open the report (games to look at, openings, plots)")) : null,
    moreGamesForm(study));
}

start();
