// The sheet page: the briefing before each deal, entering and correcting rounds, the totals,
// standings, winner and chart, and sharing. Everything goes through the public API: the sheet
// is read every few seconds with If-None-Match, and every write carries If-Match, so that no
// phone overwrites a round it has not seen; a 412 shows what changed and keeps what was typed.

import { drawChart } from "./chart.js";
import { api, clearErrors, make, remember, remembered, say, showErrors, summary } from "./common.js";
import { cardPoints, pickCards } from "./picker.js";
import { nextRound, showBriefing, showScores, showStandings, tableFor } from "./scores.js";

// The page is the same for every sheet: the sheet is the one its address names (/m/<id>).
const root = document.getElementById("sheet");
const matchId = decodeURIComponent(window.location.pathname.split("/").at(-1));
const sheetUrl = `${root.dataset.matches}/${encodeURIComponent(matchId)}`;
const POLL_SECONDS = 4;
const $ = (id) => document.getElementById(id);

// The edit token arrives in the fragment (#edit=...), which no server sees; it is kept in
// this browser for the sheet and taken out of the address bar, so a screenshot or a copied
// address does not pass it on by accident.
const fragment = new URLSearchParams(window.location.hash.slice(1));
if (fragment.get("edit")) {
  remember(matchId, { token: fragment.get("edit") });
  history.replaceState(null, "", window.location.pathname + window.location.search);
}
const token = remembered(matchId).token || null;

let sheet = null;
let etag = null;
let busy = false;

// --- reading ------------------------------------------------------------------------------------

/** Read the sheet; with `fresh` even when this phone has the current version. */
async function load({ fresh = false } = {}) {
  const headers = etag && !fresh ? { "If-None-Match": etag } : {};
  try {
    const answer = await api("GET", sheetUrl, { headers });
    if (answer.status === 304) return false;
    accept(answer);
    return true;
  } catch (error) {
    if (error.status === 404) {
      $("sheet-status").textContent = say("not_found");
      for (const id of ["briefing", "entry", "scores", "standings", "chart-section", "share"])
        $(id).hidden = true;
      stopPolling();
    } else if (!sheet) {
      $("sheet-status").textContent = error.message;
    }
    return false;
  }
}

function accept(answer) {
  // A poll sent before this phone's own write may come back after it: the version only grows,
  // so an older sheet is dropped rather than shown over the newer one.
  if (sheet && answer.body.version < sheet.version) return;
  const previous = sheet;
  sheet = answer.body;
  etag = answer.etag;
  remember(matchId, summary(sheet));
  render(previous);
}

let timer = null;
function startPolling() {
  timer = window.setInterval(() => {
    if (!busy && document.visibilityState === "visible") load();
  }, POLL_SECONDS * 1000);
}
function stopPolling() {
  window.clearInterval(timer);
}
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && !busy) load();
});

// --- what changed elsewhere --------------------------------------------------------------------

/** In words, how `after` differs from `before`: rounds recorded, corrected, taken back. */
function changes(before, after) {
  if (!before) return "";
  const found = [];
  after.rounds.forEach((round, index) => {
    const old = before.rounds[index];
    if (!old) return;
    if (old.status === "pending" && round.status === "played")
      found.push(say("change_recorded", { number: round.number }));
    else if (old.status === "played" && round.status === "pending")
      found.push(say("change_taken_back", { number: round.number }));
    else if (round.status === "played" && JSON.stringify(old.results) !== JSON.stringify(round.results)) {
      found.push(say("change_corrected", { number: round.number }));
    }
  });
  return found.join(", ") || say("change_other");
}

function notice(text) {
  $("sheet-notice").textContent = text;
  $("sheet-notice").hidden = !text;
}

// --- showing the sheet ----------------------------------------------------------------------------

const nameOf = (seat) => sheet.players[seat].name;

function render(previous) {
  $("sheet-status").textContent = token ? "" : say("view_only");
  // The evening's title, when it was given one, before the ruleset's name.
  // The API writes the ruleset's name in the page's language (it is asked in it).
  const named = sheet.ruleset.name;
  const heading = sheet.title ? `${sheet.title} · ${named}` : named;
  $("sheet-title").textContent = heading;
  $("sheet-players").textContent = sheet.players.map((player) => player.name).join(", ");
  document.title = `${heading}: ${sheet.players.map((player) => player.name).join(", ")}`;
  showBriefing(sheet);
  showScores(sheet, Boolean(token));
  renderTakeBack();
  showStandings(sheet);
  renderChart();
  renderShare();
  renderReferee();
  updateEntry(previous);
}

function renderChart() {
  const played = sheet.rounds.some((round) => round.status === "played");
  $("chart-section").hidden = !played;
  if (played) drawChart($("chart"), sheet);
}

function renderShare() {
  $("view-link").value = `${window.location.origin}${window.location.pathname}`;
  if ($("view-qr").hidden) {
    $("view-qr").src = `${window.location.pathname}/qr.svg`;
    $("view-qr").hidden = false;
  }
  $("edit-share").hidden = !token;
  if (token)
    $("edit-link").value =
      `${window.location.origin}/m/${encodeURIComponent(matchId)}#edit=${encodeURIComponent(token)}`;
  const base = sheet.ruleset.base || sheet.ruleset.id;
  $("blank-sheet-link").href = `/rulesets/${encodeURIComponent(base)}/sheet`;
  $("blank-sheet-link").hidden = false;
}

/** The referee's pages, opened on this sheet's ruleset, players and round to play. */
function renderReferee() {
  const round = nextRound(sheet) || sheet.rounds.at(-1);
  const about = `sheet=${encodeURIComponent(sheet.id)}&round=${round.number}`;
  $("check-link").search = about;
  $("hand-link").search = about;
  const own = sheet.ruleset;
  const rules = $("rules-link");
  rules.href = `${rules.dataset.rules}${encodeURIComponent(own.id)}`;
  // A house ruleset: its preset, and the options it was made with.
  if (Object.keys(own.options || {}).length)
    rules.search = `options=${encodeURIComponent(JSON.stringify(own.options))}`;
  $("ask-referee").hidden = false;
}

// --- taking back the last round ------------------------------------------------------------------

function renderTakeBack() {
  const area = $("take-back");
  const played = sheet.rounds.filter((round) => round.status === "played");
  if (!token || !played.length) {
    area.replaceChildren();
    return;
  }
  const last = played.at(-1).number;
  const ask = make("button", {
    type: "button",
    class: "secondary",
    id: "take-back-button",
    text: say("take_back", { number: last }),
  });
  ask.addEventListener("click", () => {
    const yes = make("button", { type: "button", class: "primary", id: "take-back-yes", text: say("yes") });
    const no = make("button", { type: "button", class: "secondary", text: say("no") });
    yes.addEventListener("click", () => takeBack(last));
    no.addEventListener("click", renderTakeBack);
    area.replaceChildren(make("span", { text: say("take_back_confirm", { number: last }) }), yes, no);
    yes.focus();
  });
  area.replaceChildren(ask);
}

async function takeBack(number) {
  await write("DELETE", `${sheetUrl}/rounds/${number}`, undefined, () => {
    $("entry-status").textContent = say("taken_back", { number });
  });
}

// --- entering a round -----------------------------------------------------------------------------

const form = $("round-form");
let entry = null; // {number, correcting, cards: {seat: [...]}}
let dirty = false;

function updateEntry(previous) {
  if (!token) {
    $("entry").hidden = true;
    return;
  }
  if (dirty && entry) {
    // What this phone typed stays; if another phone recorded the same round meanwhile,
    // saving it now corrects that round, and the form says so.
    if (previous) notice(say("changed_elsewhere", { changes: changes(previous, sheet) }));
    const now = sheet.rounds[entry.number - 1];
    if (!entry.correcting && now?.status === "played") labelEntry(now.number, true);
    return;
  }
  const correcting =
    entry?.correcting && sheet.rounds[entry.number - 1]?.status === "played" ? entry.number : null;
  const round = correcting ? sheet.rounds[correcting - 1] : nextRound(sheet);
  if (!round) {
    entry = null;
    $("entry").hidden = true;
    return;
  }
  buildEntry(round, Boolean(correcting));
}

document.getElementById("score-table").addEventListener("click", (event) => {
  const button = event.target.closest("[data-correct]");
  if (!button) return;
  dirty = false;
  notice("");
  buildEntry(sheet.rounds[Number(button.dataset.correct) - 1], true);
  $("entry-title").focus();
});

$("cancel-correction").addEventListener("click", () => {
  dirty = false;
  entry = null;
  updateEntry(null);
  $("entry-title").focus();
});

function numberInput(id, field, label, value) {
  return make("input", {
    type: "number",
    id,
    min: 0,
    inputmode: "numeric",
    "data-field": field,
    "aria-label": label,
    value: value ?? "",
  });
}

function resultRow(player, round, result) {
  const seat = player.seat;
  const rules = sheet.ruleset;
  const points = numberInput(
    `points-${seat}`,
    `results.${seat}.points`,
    say("points_of", { name: player.name }),
    result && !result.went_out && !result.cards ? result.penalty : result?.cards ? result.penalty : "",
  );
  points.classList.add("points");
  points.setAttribute("aria-describedby", `error-results-${seat} counted-${seat}`);
  const count = make("button", {
    type: "button",
    class: "secondary count-button",
    "data-count": seat,
    "data-field": `results.${seat}.cards`,
    "aria-label": say("count_cards_of", { name: player.name }),
    text: say("cards"),
  });
  const row = make(
    "div",
    { class: "result-row", "data-seat": seat },
    make(
      "span",
      { class: "who" },
      player.name,
      make("span", { class: "out-mark", hidden: true, text: say("went_out") }),
    ),
    make(
      "div",
      { class: "points-cell" },
      make("span", {}, make("label", { for: points.id, text: say("points") }), points),
      count,
    ),
  );
  if (rules.buying) {
    const buys = numberInput(
      `buys-${seat}`,
      `results.${seat}.buys`,
      say("buys_of", { name: player.name }),
      result?.buys,
    );
    if (rules.buy_limit !== null) buys.max = rules.buy_limit;
    row.append(make("span", {}, make("label", { for: buys.id, text: say("buys") }), buys));
  }
  if (rules.cut_bonus && seat === round.cutter) {
    const box = make("input", {
      type: "checkbox",
      id: `bonus-${seat}`,
      "data-field": `results.${seat}.bonus`,
      checked: Boolean(result?.bonus),
    });
    row.append(
      make(
        "div",
        { class: "check bonus" },
        box,
        make("label", { for: box.id, text: say("bonus_of", { name: player.name, bonus: rules.cut_bonus }) }),
      ),
    );
  }
  row.append(
    make("p", { class: "counted", id: `counted-${seat}`, hidden: true }),
    make("p", {
      class: "field-error",
      "data-error-for": `results.${seat}`,
      id: `error-results-${seat}`,
      hidden: true,
    }),
  );
  return row;
}

function labelEntry(number, correcting) {
  entry.correcting = correcting;
  $("entry-title").textContent = say(correcting ? "correct_round" : "enter_round", { number });
  $("save-round").textContent = say(correcting ? "save_correction" : "record_round", { number });
  $("cancel-correction").hidden = !correcting;
}

function buildEntry(round, correcting) {
  const results = correcting ? round.results : null;
  entry = { number: round.number, correcting, cards: {} };
  $("entry").hidden = false;
  labelEntry(round.number, correcting);
  const out = results?.find((result) => result.went_out)?.seat;
  const options = sheet.players.map((player) => {
    const radio = make("input", {
      type: "radio",
      name: "out",
      id: `out-${player.seat}`,
      value: String(player.seat),
      checked: out === player.seat,
    });
    return make("div", { class: "out-option" }, radio, make("label", { for: radio.id, text: player.name }));
  });
  const stock = make("input", {
    type: "radio",
    name: "out",
    id: "out-stock",
    value: "stock",
    "data-field": "stock_ran_out",
    checked: Boolean(correcting && round.stock_ran_out),
  });
  options.push(
    make(
      "div",
      { class: "out-option stock" },
      stock,
      make("label", { for: "out-stock", text: say("stock_ran_out") }),
    ),
  );
  $("out-options").replaceChildren(...options);
  $("result-rows").replaceChildren(
    ...sheet.players.map((player) =>
      resultRow(
        player,
        round,
        results?.find((item) => item.seat === player.seat),
      ),
    ),
  );
  for (const result of results || []) {
    if (result.cards) setCards(result.seat, result.cards);
  }
  clearErrors(form);
  showOut();
}

/** Which seat went out: "stock" when nobody did, null when not chosen yet. */
function chosenOut() {
  const radio = form.querySelector('input[name="out"]:checked');
  if (!radio) return null;
  return radio.value === "stock" ? "stock" : Number(radio.value);
}

function showOut() {
  const out = chosenOut();
  for (const row of form.querySelectorAll(".result-row")) {
    const isOut = Number(row.dataset.seat) === out;
    row.classList.toggle("is-out", isOut);
    row.querySelector(".out-mark").hidden = !isOut;
  }
}

function setCards(seat, cards) {
  entry.cards[seat] = cards;
  const points = cards.reduce((sum, card) => sum + cardPoints(sheet.ruleset.points, card), 0);
  $(`points-${seat}`).value = String(points);
  const counted = $(`counted-${seat}`);
  const sum = say(cards.length === 1 ? "counted_one" : "counted", { count: cards.length, points });
  counted.textContent = `${sum}: ${cards.join(" ")}`;
  counted.hidden = false;
}

form.addEventListener("change", (event) => {
  dirty = true;
  if (event.target.name === "out") showOut();
});
form.addEventListener("input", (event) => {
  dirty = true;
  const match = /^points-(\d+)$/.exec(event.target.id);
  if (match && entry) {
    // Points typed by hand replace the cards counted.
    delete entry.cards[match[1]];
    $(`counted-${match[1]}`).hidden = true;
  }
});
form.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-count]");
  if (!button) return;
  const seat = Number(button.dataset.count);
  const cards = await pickCards({
    name: nameOf(seat),
    start: entry.cards[seat] || [],
    points: sheet.ruleset.points,
    table: tableFor(sheet),
  });
  if (cards !== null) {
    dirty = true;
    if (cards.length) setCards(seat, cards);
    else {
      delete entry.cards[seat];
      $(`points-${seat}`).value = "";
      $(`counted-${seat}`).hidden = true;
    }
  }
  button.focus();
});

/** The body of PUT /rounds/{number}, from what was typed: the API judges it. */
function roundBody() {
  const out = chosenOut();
  const results = sheet.players.map(({ seat }) => {
    const result = { seat };
    const typed = $(`points-${seat}`).value.trim();
    if (out === seat) result.went_out = true;
    else if (entry.cards[seat]) result.cards = entry.cards[seat];
    else if (typed !== "") result.points = Number(typed);
    const buys = $(`buys-${seat}`)?.value.trim();
    if (buys) result.buys = Number(buys);
    if ($(`bonus-${seat}`)?.checked) result.bonus = sheet.ruleset.cut_bonus;
    return result;
  });
  return out === "stock" ? { results, stock_ran_out: true } : { results };
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (!entry) return;
  const number = entry.number;
  clearErrors(form);
  $("entry-status").textContent = say("saving");
  await write("PUT", `${sheetUrl}/rounds/${number}`, roundBody(), () => {
    $("entry-status").textContent = say("saved", { number });
  });
});

/**
 * Send a write with the edit token and If-Match. On success the answer is the new sheet; on a
 * 412 the sheet is read again and what changed is shown, keeping the form as typed; any other
 * refusal is shown next to the field it names.
 */
async function write(method, path, body, done) {
  busy = true;
  const keep = dirty;
  try {
    const answer = await api(method, path, {
      body,
      headers: { Authorization: `Bearer ${token}`, "If-Match": etag },
    });
    dirty = false;
    entry = entry && !entry.correcting ? entry : null;
    notice("");
    accept(answer);
    done();
    $("entry-title").focus();
  } catch (error) {
    $("entry-status").textContent = "";
    if (error.status === 412) {
      const before = sheet;
      // A round typed and refused stays as typed; a take-back had nothing typed to keep.
      dirty = keep || method === "PUT";
      await load({ fresh: true });
      notice(say("stale", { changes: changes(before, sheet) }));
      $("sheet-notice").focus();
    } else {
      const target = showErrors(form, error.problem || { detail: error.message });
      if (!target || target.hidden) $("entry-status").textContent = say("refused", { detail: error.message });
      target?.focus();
    }
  } finally {
    busy = false;
  }
}

$("show-edit-qr").addEventListener("click", async () => {
  const answer = await fetch("/qr", {
    method: "POST",
    headers: { "Content-Type": "text/plain" },
    body: $("edit-link").value,
  });
  if (!answer.ok) return;
  const drawing = new DOMParser().parseFromString(await answer.text(), "image/svg+xml").documentElement;
  drawing.setAttribute("role", "img");
  drawing.setAttribute("aria-label", say("edit_qr_label"));
  $("edit-qr").replaceChildren(document.importNode(drawing, true));
});

for (const id of ["view-link", "edit-link"])
  $(id).addEventListener("focus", (event) => event.target.select());
$("print-sheet").addEventListener("click", () => window.print());

load().then(startPolling);
