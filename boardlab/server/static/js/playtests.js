// The designer's Playtests page (/playtests/GAME, docs/playtests.md): the game's playtest
// sessions (open one for a rule variant, copy its invite link, close it), and people's games per
// variant and per session beside the Lab's stored study of the same rules: figures with 95%
// intervals, the verdict's sentences, the form's answers and every note with its game's replay,
// and the export. The page is the designers': it signs in with the Lab page's sign-in.

import * as api from "./api.js";
import { h, replace } from "./dom.js";
import { optionField, readOptions } from "./options.js";
import { inviteRow } from "./panels.js";

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split("/")[2] || "");
let catalog = [];
let game = null;
let shownSession = new URLSearchParams(location.search).get("session") || "";

async function start() {
  let me;
  try {
    me = await api.request("/api/designers/me");
  } catch (error) {
    if (error.code === "designer_key_missing" || error.code === "bad_designer_key") {
      replace($("pt-who"),
        h("p", {}, "This page is for the server's game designers. ",
          h("a", { href: "/lab" }, "Sign in on the Lab page"), " with a designer key, then come back here."));
      return;
    }
    throw error;
  }
  catalog = await api.games();
  game = catalog.find((entry) => entry.id === gameId);
  document.title = `boardlab: playtests of ${game.name}`;
  $("pt-title").textContent = `Playtests of ${game.name}`;
  const choose = h("select", { id: "pt-game", onchange: (event) => { location.href = `/playtests/${encodeURIComponent(event.target.value)}`; } },
    catalog.map((entry) => h("option", { value: entry.id, selected: entry.id === gameId }, entry.name)));
  replace($("pt-who"),
    h("p", {}, me.local ? "You use this page on the server's own computer, as its admin." : `Signed in as ${me.name}.`),
    h("div", { class: "inline-form" }, h("label", { for: "pt-game" }, "Game"), choose));
  drawSessionForm();
  await Promise.all([drawSessions(), drawReport()]);
}

// --- sessions ----------------------------------------------------------------------------------
function drawSessionForm() {
  const name = h("input", { id: "pt-session-name", maxlength: 40, required: true, placeholder: "e.g. Thursday club, short board" });
  const players = h("select", { id: "pt-players" },
    game.player_counts.map((count) => h("option", { value: count, selected: count === game.default_players }, String(count))));
  const error = h("p", { class: "alert", role: "alert", hidden: true });
  const form = $("pt-session-form");
  replace(form,
    h("div", { class: "form-row" }, h("label", { for: "pt-session-name" }, "Session name"), name),
    h("div", { class: "form-row" }, h("label", { for: "pt-players" }, "Players"), players),
    game.options.length ? h("fieldset", { class: "options" }, h("legend", {}, "The rule variant (options)"), game.options.map(optionField)) : null,
    error,
    h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary", id: "pt-open" }, "Open the session")));
  form.onsubmit = async (event) => {
    event.preventDefault();
    error.hidden = true;
    try {
      const opened = await api.request("/api/playtests/sessions", {
        method: "POST", body: { game: game.id, name: name.value.trim(), players: Number(players.value), options: readOptions(game) },
      });
      replace($("pt-opened"), h("p", {}, `Session “${opened.name}” is open. Send its link to your playtesters:`),
        inviteRow("Invite link", opened.link));
      name.value = "";
      await drawSessions();
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = false;
    }
  };
  $("pt-sessions").hidden = false;
}

async function drawSessions() {
  const sessions = await api.request(`/api/playtests/sessions?game=${encodeURIComponent(gameId)}`);
  replace($("pt-session-list"), sessions.map((session) => h("li", { dataset: { session: session.id } },
    h("strong", {}, session.name),
    h("span", {}, `${session.variant || "the rules as written"} · ${session.players} players · ${session.finished} of ${session.rooms} games finished`
      + (session.closed ? " · closed" : "")),
    session.closed ? null : inviteRow("Invite link", session.link),
    h("div", { class: "buttons" },
      h("button", { type: "button", class: "pt-only", onclick: () => showSession(session.id) }, "Only this session's games"),
      session.closed ? null : h("button", { type: "button", class: "pt-close", onclick: () => closeSession(session) }, "Close it")))));
}

async function closeSession(session) {
  try {
    await api.request(`/api/playtests/sessions/${encodeURIComponent(session.id)}/close`, { method: "POST" });
  } catch (error) {
    alert(error.message);
  }
  await drawSessions();
}

async function showSession(sessionId) {
  shownSession = sessionId;
  history.replaceState(null, "", sessionId ? `?session=${encodeURIComponent(sessionId)}` : location.pathname);
  await drawReport();
}

// --- people's games beside the Lab's ----------------------------------------------------------------
async function drawReport() {
  const query = shownSession ? `?session=${encodeURIComponent(shownSession)}` : "";
  const report = await api.request(`/api/playtests/games/${encodeURIComponent(gameId)}${query}`);
  const session = report.sessions.find((entry) => entry.id === shownSession);
  const left = Object.entries(report.left_out).filter(([, count]) => count).map(([why, count]) => `${count} ${why}`);
  const exportQuery = shownSession ? `&session=${encodeURIComponent(shownSession)}` : "";
  const base = `/api/playtests/games/${encodeURIComponent(gameId)}/export?format=`;
  replace($("pt-report"),
    h("h2", { id: "pt-report-title" }, session ? `People's games of the session “${session.name}”` : "People's games"),
    h("p", { id: "pt-count" }, `${report.games} game${report.games === 1 ? "" : "s"} between people`,
      left.length ? ` (left out: ${left.join(", ")})` : "", ".",
      session ? [" ", h("button", { type: "button", class: "link", onclick: () => showSession("") }, "Show every session's")] : null),
    h("p", { class: "exports" }, "Export: ", h("a", { href: `${base}json${exportQuery}`, download: "" }, "the records and answers (JSON)"),
      " · ", h("a", { href: `${base}csv${exportQuery}`, download: "" }, "a row per person per game (CSV)")),
    report.variants.length ? report.variants.map(variantPart)
      : h("p", { class: "muted" }, "No finished game between people yet. Open a session and send its link; "
        + `boardlab playtests --demo ${gameId} shows what comes, with simulated people.`));
  $("pt-report").hidden = false;
}

function variantPart(variant) {
  const people = variant.people;
  const lab = variant.lab;
  return h("section", { class: "variant", dataset: { variant: variant.variant } },
    h("h3", {}, `${variant.variant || "The rules as written"}: ${people.games} game${people.games === 1 ? "" : "s"}, ${variant.players} players`),
    h("ul", { class: "verdict" }, variant.verdict.map((line) => h("li", {}, line))),
    lab ? null : h("p", {}, "The Lab has no study of these rules yet. Make one with ", h("code", { class: "lab-command" }, variant.lab_command),
      " (its folder next to the server's, or pass it with --lab), or on the ", h("a", { href: `/lab?game=${encodeURIComponent(gameId)}` }, "Lab page"), "."),
    lab && lab.study.report ? h("p", { class: "pt-lab-study" }, "The Lab's study of these rules: ",
      h("a", { href: lab.study.report }, `its report (${lab.study.about})`), ".") : null,
    h("div", { class: "table-box" }, figuresTable(variant)),
    h("p", { class: "pt-endings" }, variant.endings),
    formTable(variant),
    variant.sessions.length ? h("div", { class: "table-box" }, sessionsTable(variant)) : null,
    notesList(people.notes));
}

/** A figure and its 95% interval as the server words it ("64% [35, 85]", "+7 [-28, 39]"): the
 * rounding of the verdict's sentences and of the terminal's tables (boardlab/lab/verdict.py). */
function figureText(figure) {
  return figure?.text ?? "-";
}

function figuresTable(variant) {
  const lab = variant.lab;
  const head = ["figure", "people", ...(lab ? [`the Lab (${[...new Set(lab.study.agents)].join(", ")}, ${lab.games} games)`, "people minus the Lab"] : [])];
  return h("table", { class: "figures pt-figures" },
    h("caption", { class: "muted" }, "with 95% intervals; a difference in bold is sure (its interval leaves out 0)"),
    h("thead", {}, h("tr", {}, head.map((title) => h("th", { scope: "col" }, title)))),
    h("tbody", {}, variant.rows.map((row) => h("tr", { dataset: { key: row.key } },
      h("th", { scope: "row" }, row.title),
      h("td", {}, figureText(row.people)),
      lab ? h("td", {}, figureText(row.lab)) : null,
      lab ? h("td", { class: row.sure ? "sure" : null }, figureText(row.difference)) : null))));
}

function formTable(variant) {
  const form = variant.people.form;
  if (!form.answers) return h("p", { class: "muted" }, "Nobody has answered the playtest form yet.");
  const rows = [
    ["fun (1 to 5)", figureText(form.fun)],
    ["found it fair", figureText(form.fair)],
    ...variant.seat_names.map((name, seat) => [`${name} favoured`, figureText(form.favoured[seat])]),
    ["too short", figureText(form.length.short)],
    ["about right", figureText(form.length.right)],
    ["too long", figureText(form.length.long)],
  ];
  return h("div", { class: "table-box" }, h("table", { class: "figures pt-form" },
    h("caption", { class: "muted" }, `the playtest form: ${form.answers} answer${form.answers === 1 ? "" : "s"}`),
    h("tbody", {}, rows.map(([title, value]) => h("tr", {}, h("th", { scope: "row" }, title), h("td", {}, value))))));
}

function sessionsTable(variant) {
  return h("table", { class: "figures pt-sessions" },
    h("caption", { class: "muted" }, "per session"),
    h("thead", {}, h("tr", {}, ["session", "games", "first player wins", "length in moves", "fun (1 to 5)"].map((title) => h("th", { scope: "col" }, title)))),
    h("tbody", {}, variant.sessions.map((entry) => h("tr", {},
      h("th", { scope: "row" }, entry.session),
      h("td", {}, String(entry.people.games)),
      h("td", {}, figureText(entry.people.metrics.first_player_wins)),
      h("td", {}, figureText(entry.people.metrics.decisions)),
      h("td", {}, figureText(entry.people.form.fun))))));
}

function notesList(notes) {
  if (!notes.length) return null;
  return h("div", {}, h("h4", {}, "The players' notes"),
    h("ul", { class: "notes pt-notes" }, notes.map((note) => h("li", {},
      h("blockquote", {}, `“${note.note}”`),
      h("span", { class: "muted" }, [note.seat_name, note.player, note.session ? `session ${note.session}` : null].filter(Boolean).join(", "), " · "),
      note.room ? h("a", { href: note.replay }, "the game's replay") : h("code", {}, note.replay)))));
}

start().catch((error) => {
  console.error(error);
  replace($("pt-who"), h("p", { class: "alert" }, `The page failed: ${error.message}`));
});
