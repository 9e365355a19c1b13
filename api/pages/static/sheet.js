// The sheet page: the totals, the briefing before each deal, entering and correcting rounds,
// the end of the match, and sharing. Everything goes through the public API: the sheet is read
// every few seconds with If-None-Match, and every write carries If-Match, so that no phone
// overwrites a round it has not seen.
//
// A table's Wi-Fi comes and goes. The page keeps the last copy of the sheet on the phone and
// says how old it is when the network is gone; a round saved with no network waits in an outbox
// on the phone and is sent, with If-Match, when the network is back; when another phone saved
// the same round first, both entries are shown and the scorekeeper chooses.

import {
  agoText,
  api,
  clearErrors,
  keep,
  kept,
  make,
  randomKey,
  rematchBody,
  remember,
  remembered,
  say,
  summary,
} from "./common.js";
import * as entry from "./entry.js";
import { nextRound, showBoard, showBriefing, showEnding, showHeading, showScores, toggleRound } from "./scores.js";

// The chart and the sharing (with its QR codes) are below the totals and the round to enter:
// they are fetched once the sheet is shown, so that on a slow network the first screen does
// not wait for them.
let chart = null;
let sharing = null;
const chartModule = () => (chart ??= import("./chart.js"));
const sharingModule = () => (sharing ??= import("./share.js"));

// The page is the same for every sheet: the sheet is the one its address names (/m/<id>).
const root = document.getElementById("sheet");
const matchId = decodeURIComponent(window.location.pathname.split("/").at(-1));
const sheetUrl = `${root.dataset.matches}/${encodeURIComponent(matchId)}`;
const POLL_SECONDS = 4;
/** How often "last updated … ago" is said again while the network is gone. */
const OFFLINE_TICK_SECONDS = 15;
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
/** A write in flight: the save button is locked and polls wait for it. */
let busy = false;
/** When the API last answered, and whether it stopped answering since. */
let heardAt = null;
let offline = false;
/** The round two phones saved, while the scorekeeper chooses between the entries. */
let conflict = null;
/** The sheet is not there (deleted, or never was). */
let missing = false;

// --- what this phone keeps for the sheet ----------------------------------------------------------

/** The last copy of the sheet, shown when the network is gone: {sheet, etag, at}. */
const COPY = `copy.${matchId}`;
/** Rounds saved with no network, oldest first, each as it will be sent. */
const OUTBOX = `outbox.${matchId}`;
/** The rounds this phone saved, as it saved them: another phone's change to one is said. */
const MINE = `mine.${matchId}`;

const outbox = () => kept(OUTBOX) || [];
const setOutbox = (items) => keep(OUTBOX, items.length ? items : null);

/** What a played round recorded (not its running totals, which earlier rounds change). */
function roundKey(round) {
  if (!round || round.status !== "played") return null;
  const results = round.results.map((result) => [
    result.seat,
    result.penalty,
    result.went_out,
    result.buys,
    result.bonus,
    result.cards || null,
  ]);
  return JSON.stringify([results, Boolean(round.stock_ran_out)]);
}

// --- reading ------------------------------------------------------------------------------------

/** Read the sheet; with `fresh` even when this phone has the current version. */
async function load({ fresh = false } = {}) {
  const headers = etag && !fresh ? { "If-None-Match": etag } : {};
  try {
    const answer = await api("GET", sheetUrl, { headers });
    heard();
    if (answer.status !== 304) accept(answer);
  } catch (error) {
    if (error.status === 0) lost();
    else if (error.status === 404) gone();
    else {
      heard();
      if (!sheet) $("sheet-status").textContent = error.message;
    }
    return;
  }
  if (!fresh) sendWaiting();
}

/** The sheet is no more (deleted, or never was): nothing of it is shown. */
function gone() {
  missing = true;
  window.clearInterval(poller);
  $("sheet-status").textContent = say("not_found");
  for (const id of ["board", "ending", "briefing", "entry", "scores", "chart-section", "share", "ask-referee"])
    $(id).hidden = true;
}

/** A newer sheet from the API: shown, kept, and what another phone changed is said. */
function accept(answer, { ours = false } = {}) {
  // A poll sent before this phone's own write may come back after it: the version only grows,
  // so an older sheet is dropped rather than shown over the newer one.
  if (sheet && answer.body.version < sheet.version) return;
  const previous = sheet;
  sheet = answer.body;
  etag = answer.etag;
  keep(COPY, { sheet, etag, at: Date.now() });
  remember(matchId, summary(sheet));
  if (!ours && previous) sayChanges(previous);
  render();
}

let poller = null;
function startPolling() {
  poller = window.setInterval(() => {
    if (!busy && document.visibilityState === "visible") load();
  }, POLL_SECONDS * 1000);
}
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && !busy) load();
});
window.addEventListener("online", () => {
  if (!busy) load();
});

// --- the network, and its absence -----------------------------------------------------------------

function heard() {
  heardAt = Date.now();
  if (!offline) return;
  offline = false;
  connection(say("online_again"));
  window.setTimeout(() => offline || connection(""), 4000);
}

function lost() {
  offline = true;
  sayOffline();
}

/** "No connection: last updated 2 minutes ago", kept true while the network stays away. */
function sayOffline() {
  if (!offline) return;
  if (heardAt === null) return;
  const recent = Date.now() - heardAt < 60_000;
  connection(recent ? say("offline_recent") : say("offline_since", { ago: agoText(heardAt) }));
}
window.setInterval(sayOffline, OFFLINE_TICK_SECONDS * 1000);

function connection(text) {
  $("connection").textContent = text;
  $("connection").hidden = !text;
}

function notice(text, details = []) {
  const box = $("sheet-notice");
  box.replaceChildren(
    ...(text ? [make("p", { text })] : []),
    ...(details.length ? [make("ul", {}, ...details.map((line) => make("li", { text: line })))] : []),
  );
  box.hidden = !text;
}

// --- what changed elsewhere --------------------------------------------------------------------

/** In words, how the sheet differs from `before`: rounds recorded, corrected, taken back. */
function changes(before) {
  const found = [];
  sheet.rounds.forEach((round, index) => {
    const old = before.rounds[index];
    if (!old) return;
    if (old.status === "pending" && round.status === "played")
      found.push(say("change_recorded", { number: round.number }));
    else if (old.status === "played" && round.status === "pending")
      found.push(say("change_taken_back", { number: round.number }));
    else if (roundKey(old) !== roundKey(round)) found.push(say("change_corrected", { number: round.number }));
  });
  return found.join(", ") || say("change_other");
}

/** After another phone's write: a round this phone saved that was changed is said, with what
 * changed; a round being typed here that was recorded there opens the choice between them. */
function sayChanges(previous) {
  const mine = kept(MINE) || {};
  for (const [number, key] of Object.entries(mine)) {
    const now = sheet.rounds[Number(number) - 1];
    if (roundKey(now) === key) continue;
    const was = previous.rounds[Number(number) - 1];
    if (now?.status === "played" && was?.status === "played") {
      notice(say("mine_replaced", { number }), differences(was, now));
    }
    delete mine[number];
  }
  keep(MINE, Object.keys(mine).length ? mine : null);
  const typing = entry.entering();
  if (typing && entry.isDirty() && !conflict) {
    const round = sheet.rounds[typing.number - 1];
    const was = previous.rounds[typing.number - 1];
    if (!typing.correcting && round.status === "played") {
      openConflict(typing.number, entry.roundBody(), false);
    } else if (typing.correcting && roundKey(round) !== roundKey(was)) {
      openConflict(typing.number, entry.roundBody(), true);
    } else {
      notice(say("changed_elsewhere", { changes: changes(previous) }));
    }
  }
}

/** Each player whose result differs between two versions of a round: "Ann: 35 → 40". */
function differences(before, after) {
  return sheet.players
    .map((player) => {
      const old = before.results.find((result) => result.seat === player.seat);
      const now = after.results.find((result) => result.seat === player.seat);
      const [was, is] = [entry.resultText(old), entry.resultText(now)];
      return was === is ? null : say("change_value", { name: player.name, before: was, after: is });
    })
    .filter(Boolean);
}

function rememberMine(number) {
  const mine = kept(MINE) || {};
  mine[number] = roundKey(sheet.rounds[number - 1]);
  keep(MINE, mine);
}

// --- showing the sheet ----------------------------------------------------------------------------

function render() {
  $("sheet-status").textContent = token ? "" : say("view_only");
  showHeading(sheet);
  showEnding(sheet);
  $("rematch").hidden = sheet.status !== "finished";
  showBoard(sheet);
  showBriefing(sheet);
  showScores(sheet, { editable: Boolean(token), queued: outbox().map((item) => item.number) });
  renderTakeBack();
  renderChart();
  sharingModule().then((module) => module.showSharing(sheet, token));
  renderReferee();
  updateEntry();
  // On a desktop the scores take the whole width once there is nothing to enter.
  $("sheet-columns").classList.toggle("single", $("entry").hidden && $("briefing").hidden);
}

function renderChart() {
  const played = sheet.rounds.some((round) => round.status === "played");
  $("chart-section").hidden = !played;
  if (played) chartModule().then((module) => module.drawChart($("chart"), sheet));
}

/** The referee's pages, opened on this sheet's ruleset, players and round to play. */
function renderReferee() {
  const round = nextRound(sheet) || sheet.rounds.at(-1);
  const about = `sheet=${encodeURIComponent(sheet.id)}&round=${round.number}`;
  $("check-link").search = about;
  $("hand-link").search = about;
  const own = sheet.ruleset;
  const rules = $("rules-link");
  rules.href = `${rules.dataset.rules}${encodeURIComponent(own.base || own.id)}`;
  // A house ruleset: its preset, and the options it was made with.
  if (Object.keys(own.options || {}).length)
    rules.search = `options=${encodeURIComponent(JSON.stringify(own.options))}`;
  $("blank-sheet-link").href = `/rulesets/${encodeURIComponent(own.base || own.id)}/sheet`;
  $("blank-sheet-link").hidden = false;
  $("ask-referee").hidden = false;
}

// A tap on a played round's row opens its details (the row's button does it by keyboard).
$("score-table").addEventListener("click", (event) => {
  const correct = event.target.closest("[data-correct]");
  if (correct) {
    startCorrection(Number(correct.dataset.correct));
    return;
  }
  const row = event.target.closest(".round-row.played");
  if (row) toggleRound(Number(row.dataset.round));
});

// --- entering a round -----------------------------------------------------------------------------

/** The round the form is for: the one being corrected, else the next one not yet saved. */
function updateEntry() {
  if (!token) {
    $("entry").hidden = true;
    return;
  }
  if (conflict) return; // the scorekeeper is choosing between two entries
  const typing = entry.entering();
  if (typing && entry.isDirty() && sheet.rounds[typing.number - 1]) return; // what is typed stays
  // A round typed here but recorded by another phone while this one was closed.
  for (const round of sheet.rounds) {
    const draft = kept(`draft.${matchId}.${round.number}`);
    if (round.status === "played" && draft && (draft.conflict || !draft.correcting)) {
      entry.buildEntry(sheet, round, false, matchId);
      openConflict(round.number, entry.roundBody(), false);
      return;
    }
  }
  const correcting = typing?.correcting && sheet.rounds[typing.number - 1]?.status === "played";
  const waiting = new Set(outbox().map((item) => item.number));
  const round = correcting
    ? sheet.rounds[typing.number - 1]
    : sheet.rounds.find((each) => each.status === "pending" && !waiting.has(each.number));
  if (!round) {
    $("entry").hidden = true;
    return;
  }
  entry.buildEntry(sheet, round, Boolean(correcting), matchId);
}

function startCorrection(number) {
  entry.buildEntry(sheet, sheet.rounds[number - 1], true, matchId);
  notice("");
  $("entry-title").focus();
  $("entry").scrollIntoView({ block: "start" });
}

$("cancel-correction").addEventListener("click", () => {
  const typing = entry.entering();
  if (typing) entry.dropDraft(matchId, typing.number);
  const round = sheet.rounds.find((each) => each.status === "pending");
  if (round) entry.buildEntry(sheet, round, false, matchId);
  else $("entry").hidden = true;
  $("entry-title").focus();
});

// Leaving with a round typed and not saved asks first (the draft would survive, but a phone
// handed on may never come back to this page).
window.addEventListener("beforeunload", (event) => {
  if (entry.isDirty() || busy) event.preventDefault();
});

$("round-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  // A second tap while the first write is on its way does nothing: one tap, one write.
  if (busy) return;
  const typing = entry.entering();
  if (!typing) return;
  const found = entry.problems();
  if (found.length) {
    entry.showProblems(found, typing.number);
    return;
  }
  clearErrors($("round-form"));
  const body = entry.roundBody();
  const item = {
    number: typing.number,
    body,
    etag,
    before: typing.correcting ? roundKey(sheet.rounds[typing.number - 1]) : null,
  };
  await deliver(item, { typed: true });
});

function lockSave(locked) {
  busy = locked;
  $("save-round").disabled = locked;
  $("round-form").setAttribute("aria-busy", String(locked));
}

/** A line by the save button, where the eye is after a tap: said, shown and focused. */
function status(text) {
  const line = $("entry-status");
  line.textContent = text;
  if (!text || $("entry").hidden) return;
  line.focus({ preventScroll: true });
  line.scrollIntoView({ block: "nearest" });
}

/**
 * Send one round: PUT with the edit token and the ETag the round was typed against. A 412
 * reads the sheet again: if the round itself is as it was, the round is sent again (another
 * round changed, not this one); if another phone saved it, that is a conflict to choose.
 */
async function send(item) {
  let ifMatch = item.etag;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const answer = await api("PUT", `${sheetUrl}/rounds/${item.number}`, {
        body: item.body,
        headers: { Authorization: `Bearer ${token}`, "If-Match": ifMatch },
      });
      heard();
      return { outcome: "saved", answer };
    } catch (error) {
      // No network, or a service that cannot store it now: nothing was stored, so it waits.
      if (error.status === 0 || error.status === 503) {
        if (error.status === 0) lost();
        return { outcome: "waiting" };
      }
      heard();
      if (error.status !== 412) return { outcome: "refused", error };
      await load({ fresh: true });
      if (roundKey(sheet.rounds[item.number - 1]) !== item.before) return { outcome: "conflict" };
      ifMatch = etag;
    }
  }
  return { outcome: "conflict" };
}

/** Send a round typed on this page (`typed`) or waiting in the outbox, and say what came of it. */
async function deliver(item, { typed }) {
  lockSave(true);
  if (typed) status(say("saving"));
  let result;
  try {
    result = await send(item);
  } finally {
    lockSave(false);
  }
  const number = item.number;
  if (!typed) setOutbox(outbox().filter((each) => each.number !== number));
  if (result.outcome === "saved") {
    entry.dropDraft(matchId, number);
    if (entry.entering()?.number === number) entry.finished();
    accept(result.answer, { ours: true });
    rememberMine(number);
    notice("");
    status(say(typed ? "saved" : "sent", { number }));
    return true;
  }
  if (result.outcome === "waiting") {
    setOutbox([...outbox().filter((each) => each.number !== number), item].sort((a, b) => a.number - b.number));
    entry.dropDraft(matchId, number);
    render();
    status(say("queued", { number }));
    return false;
  }
  // What was sent goes back into the form, to be chosen, fixed or sent again.
  keep(`draft.${matchId}.${number}`, entry.draftOf(item.body, item.before !== null));
  if (result.outcome === "conflict") {
    entry.buildEntry(sheet, sheet.rounds[number - 1], sheet.rounds[number - 1].status === "played", matchId);
    openConflict(number, item.body, item.before !== null);
    return false;
  }
  const { error } = result;
  const round = sheet.rounds[number - 1];
  entry.buildEntry(sheet, round, item.before !== null && round.status === "played", matchId);
  if (error.status === 422) entry.showProblems(entry.inWords(error.problem, item.body, number), number);
  else status(say("problem_round_order", { number, detail: error.message }));
  return false;
}

/** Send what waits in the outbox, oldest first, now that the API answers again. */
async function sendWaiting() {
  while (!busy && !conflict && !offline) {
    const [item] = outbox();
    if (!item) return;
    const sent = await deliver(item, { typed: false });
    if (!sent) return;
  }
}

// --- two phones, one round ------------------------------------------------------------------------

/** Show what the other phone saved for round `number` beside `mine`, and let the scorekeeper
 * keep theirs or replace it with this phone's entry (sent as a correction). */
function openConflict(number, mine, changed) {
  conflict = number;
  const theirs = sheet.rounds[number - 1];
  keep(`draft.${matchId}.${number}`, entry.draftOf(mine, true, true));
  entry.nowCorrecting(true);
  entry.showConflict(
    { theirs, mine, changed },
    {
      keepTheirs() {
        conflict = null;
        entry.hideConflict();
        entry.dropDraft(matchId, number);
        entry.finished();
        rememberMine(number); // what stands now is what this phone agreed to
        updateEntry();
        status(say("kept_theirs", { number }));
        notice("");
      },
      replace() {
        conflict = null;
        entry.hideConflict();
        notice("");
        $("round-form").requestSubmit();
      },
    },
  );
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
  if (busy) return;
  lockSave(true);
  try {
    const answer = await api("DELETE", `${sheetUrl}/rounds/${number}`, {
      headers: { Authorization: `Bearer ${token}`, "If-Match": etag },
    });
    heard();
    const mine = kept(MINE) || {};
    delete mine[number];
    keep(MINE, Object.keys(mine).length ? mine : null);
    accept(answer, { ours: true });
    status(say("taken_back", { number }));
  } catch (error) {
    if (error.status === 0) lost();
    else if (error.status === 412) {
      const before = sheet;
      await load({ fresh: true });
      notice(say("stale", { changes: changes(before) }));
      $("sheet-notice").focus();
    } else notice(error.message);
    renderTakeBack();
  } finally {
    lockSave(false);
  }
}

// --- the end of the match -------------------------------------------------------------------------

/** A rematch: the same players in the same seats, the next dealer first, as a new sheet this
 * phone can edit. One Idempotency-Key per sheet: a double tap, or a retry, starts one match. */
$("rematch").addEventListener("click", async () => {
  const button = $("rematch");
  button.disabled = true;
  $("rematch-status").textContent = say("rematch_starting");
  const key = kept(`rematch.${matchId}`) || randomKey();
  keep(`rematch.${matchId}`, key);
  try {
    const answer = await api("POST", "/v1/matches", {
      body: rematchBody(sheet),
      headers: { "Idempotency-Key": key },
    });
    const next = answer.body;
    remember(next.id, { token: next.edit_token, ...summary(next) });
    window.location.assign(`/m/${encodeURIComponent(next.id)}`);
  } catch (error) {
    $("rematch-status").textContent = say("rematch_failed", { detail: error.message });
    $("rematch-status").focus();
    button.disabled = false;
  }
});

$("print-sheet").addEventListener("click", () => window.print());

// --- starting ----------------------------------------------------------------------------------------

/** With no network at all, the copy this phone kept is shown, and says how old it is. */
function showKeptCopy() {
  const copy = kept(COPY);
  if (sheet || !copy) return;
  sheet = copy.sheet;
  etag = copy.etag;
  heardAt = copy.at;
  render();
  connection(say("offline_copy", { ago: agoText(copy.at) }));
}

load().then(() => {
  if (!sheet && offline) showKeptCopy();
  if (!missing) startPolling();
});
sharingModule().then((module) =>
  module.findNetworkAddress(root.dataset.network, matchId, () => sheet && module.showSharing(sheet, token)),
);
