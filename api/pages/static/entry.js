// The form a scorekeeper enters a round with: who went out, each other player's points (typed,
// or counted with the card picker), buys and the cut bonus. What is typed is kept on this phone
// as a draft of its sheet and round until it is saved, so a reload, the back button or a phone
// that ran out of battery loses nothing. Mistakes the page can see are said before anything is
// sent, and the API's refusals are said in the same words, naming the player: the API judges
// the round, the page only speaks for it.

import { cardPoints, cardText, clearErrors, keep, kept, make, say, showErrors } from "./common.js";
import { colour, standingOf, tableFor } from "./scores.js";

const $ = (id) => document.getElementById(id);
const form = $("round-form");
/** The most points and buys a result can be entered with: the API's bounds. */
const MOST_POINTS = 5000;
const MOST_BUYS = 50;

/** The round being entered: {number, correcting, cards: {seat: [...]}}, or null. */
let current = null;
let sheet = null;
let draftKey = null;
/** Whether something was typed that is not saved. */
let dirty = false;

export const entering = () => current;

/** The round is saved (or given up): the form is for whatever comes next. */
export function finished() {
  current = null;
  dirty = false;
}
export const isDirty = () => dirty;

/** Forget what was typed for `number` (saved, or given up for another phone's entry). */
export function dropDraft(matchId, number) {
  keep(`draft.${matchId}.${number}`, null);
  if (current?.number === number) dirty = false;
}

/**
 * Build the form for `round` of `forSheet`; `correcting` fills it with what was recorded. A
 * draft kept for the round fills it instead.
 */
export function buildEntry(forSheet, round, correcting, matchId) {
  sheet = forSheet;
  current = { number: round.number, correcting, conflict: false, cards: {} };
  draftKey = `draft.${matchId}.${round.number}`;
  const draft = kept(draftKey);
  const recorded = correcting ? round.results : null;
  $("entry").hidden = false;
  label();

  const out = recorded?.find((result) => result.went_out)?.seat;
  const options = sheet.players.map((player) =>
    make(
      "label",
      { class: `out-option ${colour(player.seat)}`, for: `out-${player.seat}` },
      make("input", {
        type: "radio",
        name: "out",
        id: `out-${player.seat}`,
        value: String(player.seat),
        checked: out === player.seat,
      }),
      make("span", { class: "out-name", text: player.name }),
    ),
  );
  options.push(
    make(
      "label",
      { class: "out-option stock", for: "out-stock" },
      make("input", {
        type: "radio",
        name: "out",
        id: "out-stock",
        value: "stock",
        "data-field": "stock_ran_out",
        checked: Boolean(correcting && round.stock_ran_out),
      }),
      make("span", { class: "out-name", text: say("stock_ran_out") }),
    ),
  );
  $("out-options").replaceChildren(...options);
  $("result-rows").replaceChildren(
    ...sheet.players.map((player) =>
      resultRow(player, round, recorded?.find((item) => item.seat === player.seat)),
    ),
  );
  for (const result of recorded || []) {
    if (result.cards) setCards(result.seat, result.cards);
  }
  dirty = false;
  if (draft) {
    fill(draft);
    dirty = true;
  }
  clearErrors(form);
  $("entry-status").textContent = "";
  showOut();
}

/** The heading, the save button and, when correcting, the banner that says so. */
function label() {
  const { number, correcting } = current;
  $("entry-title").textContent = say(correcting ? "correct_round" : "enter_round", { number });
  $("save-round").textContent = say(correcting ? "save_correction" : "record_round", { number });
  $("correcting").hidden = !correcting;
  $("correcting-text").textContent = correcting ? say("correcting", { number }) : "";
  $("entry").classList.toggle("is-correcting", correcting);
}

/** Saving now would replace a round another phone recorded: the form says it corrects. */
export function nowCorrecting(conflict = false) {
  current.correcting = true;
  current.conflict = conflict;
  label();
}

function numberInput(id, field, label, value) {
  return make("input", {
    type: "number",
    id,
    min: 0,
    step: 1,
    inputmode: "numeric",
    "data-field": field,
    "aria-label": label,
    value: value ?? "",
  });
}

function resultRow(player, round, result) {
  const seat = player.seat;
  const rules = sheet.ruleset;
  const standing = standingOf(sheet, seat);
  const points = numberInput(
    `points-${seat}`,
    `results.${seat}.points`,
    say("points_of", { name: player.name }),
    result && !result.went_out ? result.penalty : "",
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
    { class: `result-row ${colour(seat)}`, "data-seat": seat },
    make(
      "div",
      { class: "who" },
      make("span", { class: "who-name", text: player.name }),
      make("span", {
        class: "who-standing",
        text: say("standing_now", { total: standing.total, place: standing.place }),
      }),
      make("span", { class: "out-mark", hidden: true, text: say("went_out") }),
    ),
    make(
      "div",
      { class: "points-cell" },
      make("span", { class: "input-box" }, make("label", { for: points.id, text: say("points") }), points),
      count,
    ),
  );
  if (rules.buying) {
    const buys = numberInput(`buys-${seat}`, `results.${seat}.buys`, say("buys_of", { name: player.name }), result?.buys);
    if (rules.buy_limit !== null) buys.max = rules.buy_limit;
    row.append(make("span", { class: "input-box buys-box" }, make("label", { for: buys.id, text: say("buys") }), buys));
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
        "label",
        { class: "check bonus", for: box.id },
        box,
        make("span", { text: say("bonus_of", { name: player.name, bonus: rules.cut_bonus }) }),
      ),
    );
  }
  row.append(
    make("p", { class: "counted", id: `counted-${seat}`, hidden: true }),
    make("p", { class: "field-error", "data-error-for": `results.${seat}`, id: `error-results-${seat}`, hidden: true }),
  );
  return row;
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
  for (const option of form.querySelectorAll(".out-option")) {
    option.classList.toggle("chosen", option.querySelector("input").checked);
  }
}

function setCards(seat, cards) {
  current.cards[seat] = cards;
  const points = cards.reduce((sum, card) => sum + cardPoints(sheet.ruleset.points, card), 0);
  $(`points-${seat}`).value = String(points);
  const counted = $(`counted-${seat}`);
  const sum = say(cards.length === 1 ? "counted_one" : "counted", { count: cards.length, points });
  counted.textContent = `${sum}: ${cards.map(cardText).join(" ")}`;
  counted.hidden = false;
}

function clearCards(seat) {
  delete current.cards[seat];
  $(`counted-${seat}`).hidden = true;
}

// --- the draft -----------------------------------------------------------------------------------

/** What the form holds, as kept in a draft (and as the conflict view shows "yours"). */
function typed() {
  const draft = { correcting: current.correcting, conflict: current.conflict, out: chosenOut(), points: {}, cards: {}, buys: {}, bonus: {} };
  for (const { seat } of sheet.players) {
    draft.points[seat] = $(`points-${seat}`).value;
    if (current.cards[seat]) draft.cards[seat] = current.cards[seat];
    const buys = $(`buys-${seat}`);
    if (buys) draft.buys[seat] = buys.value;
    if ($(`bonus-${seat}`)?.checked) draft.bonus[seat] = true;
  }
  return draft;
}

/**
 * A round's body (as sent, or waiting to be sent) as a draft of the form, to be shown again:
 * `correcting` when it would replace a recorded round, `conflict` while another phone's entry
 * for it stands beside it.
 */
export function draftOf(body, correcting, conflict = false) {
  const draft = { correcting, conflict, out: body.stock_ran_out ? "stock" : null, points: {}, cards: {}, buys: {}, bonus: {} };
  for (const result of body.results) {
    if (result.went_out) draft.out = result.seat;
    if (result.points !== undefined) draft.points[result.seat] = String(result.points);
    if (result.cards) draft.cards[result.seat] = result.cards;
    if (result.buys !== undefined) draft.buys[result.seat] = String(result.buys);
    if (result.bonus) draft.bonus[result.seat] = true;
  }
  return draft;
}

function fill(draft) {
  if (draft.out !== null && draft.out !== undefined) {
    const radio = $(draft.out === "stock" ? "out-stock" : `out-${draft.out}`);
    if (radio) radio.checked = true;
  }
  for (const { seat } of sheet.players) {
    $(`points-${seat}`).value = draft.points?.[seat] ?? "";
    if (draft.cards?.[seat]) setCards(seat, draft.cards[seat]);
    else clearCards(seat);
    const buys = $(`buys-${seat}`);
    if (buys) buys.value = draft.buys?.[seat] ?? "";
    const bonus = $(`bonus-${seat}`);
    if (bonus) bonus.checked = Boolean(draft.bonus?.[seat]);
  }
}

function saveDraft() {
  dirty = true;
  keep(draftKey, typed());
}

form.addEventListener("change", (event) => {
  if (!current) return;
  if (event.target.name === "out") showOut();
  saveDraft();
});
form.addEventListener("input", (event) => {
  if (!current) return;
  const match = /^points-(\d+)$/.exec(event.target.id);
  if (match) clearCards(Number(match[1])); // points typed by hand replace the cards counted
  saveDraft();
});
form.addEventListener("keydown", (event) => {
  // Enter in a number field moves to the next one, as on a paper sheet, rather than sending
  // a round half typed; the save button sends.
  if (event.key !== "Enter" || event.target.tagName !== "INPUT" || event.target.type === "radio") return;
  event.preventDefault();
  const fields = [...form.querySelectorAll("input[type=number]")].filter((input) => !input.closest(".is-out"));
  const next = fields[fields.indexOf(event.target) + 1];
  (next || $("save-round")).focus();
});
form.addEventListener("click", async (event) => {
  const button = event.target.closest("[data-count]");
  if (!button || !current) return;
  const seat = Number(button.dataset.count);
  // The picker is fetched when first wanted: a phone opening the sheet on a slow network
  // needs the totals first.
  const { pickCards } = await import("./picker.js");
  const cards = await pickCards({
    name: sheet.players[seat].name,
    start: current.cards[seat] || [],
    points: sheet.ruleset.points,
    table: tableFor(sheet),
  });
  if (cards !== null) {
    if (cards.length) setCards(seat, cards);
    else {
      clearCards(seat);
      $(`points-${seat}`).value = "";
    }
    saveDraft();
  }
  button.focus();
});

// --- checking and sending ------------------------------------------------------------------------

/** What the page can see is wrong before sending, in its own words, each at its field. */
export function problems() {
  const found = [];
  const out = chosenOut();
  if (out === null) found.push({ field: "results", message: say("need_out") });
  for (const { seat, name } of sheet.players) {
    const input = $(`points-${seat}`);
    if (out !== seat && !current.cards[seat]) {
      // A number field that holds no number ("12a") reads as empty, but is not valid.
      if (input.value.trim() === "" && !input.validity.badInput) {
        found.push({ field: `results.${seat}`, message: say("need_points", { name }) });
      } else if (!wholeNumber(input, 1, MOST_POINTS)) {
        found.push({ field: `results.${seat}.points`, message: say("points_range", { name, most: MOST_POINTS }) });
      }
    }
    const buys = $(`buys-${seat}`);
    const most = sheet.ruleset.buy_limit ?? MOST_BUYS;
    if (buys && (buys.value.trim() !== "" || buys.validity.badInput) && !wholeNumber(buys, 0, most)) {
      found.push({ field: `results.${seat}.buys`, message: say("buys_range", { name, most }) });
    }
  }
  return found;
}

function wholeNumber(input, least, most) {
  const value = Number(input.value);
  return !input.validity.badInput && input.value.trim() !== "" && Number.isInteger(value) && value >= least && value <= most;
}

/** The body of PUT /rounds/{number}, from what was typed: the API judges it. */
export function roundBody() {
  const out = chosenOut();
  const results = sheet.players.map(({ seat }) => {
    const result = { seat };
    const points = $(`points-${seat}`).value.trim();
    if (out === seat) result.went_out = true;
    else if (current.cards[seat]) result.cards = current.cards[seat];
    else if (points !== "") result.points = Number(points);
    const buys = $(`buys-${seat}`)?.value.trim();
    if (buys) result.buys = Number(buys);
    if ($(`bonus-${seat}`)?.checked) result.bonus = sheet.ruleset.cut_bonus;
    return result;
  });
  return out === "stock" ? { results, stock_ran_out: true } : { results };
}

/**
 * Say what is wrong with the round, each message at its field in the page's words, and a line
 * by the save button; the focus goes to the first field to fix (the screen scrolls there).
 */
export function showProblems(found, number) {
  const target = showErrors(form, { errors: found });
  const count = found.length;
  const line = count === 1 ? say("problem_one") : say("problems_more", { count });
  $("entry-status").textContent = say("not_saved", { number, problem: line });
  const focus = target && !target.hidden ? target : $("entry-status");
  focus.focus();
  focus.scrollIntoView({ block: "center" });
}

/** The API's refusal of a round, said as the page says it: by code, naming the player. */
export function inWords(problem, body, number) {
  const round = roundOf(number);
  const errors = problem.errors?.length ? problem.errors : [{ field: "", message: problem.detail }];
  return errors.map((error) => {
    // The API names a result by its place in the body; the page's rows are by seat.
    const at = /^results\.(\d+)/.exec(error.field || "");
    const sent = at ? body.results[Number(at[1])] : undefined;
    const name = sent ? sheet.players[sent.seat]?.name ?? "" : "";
    const field = sent ? error.field.replace(/^results\.\d+/, `results.${sent.seat}`) : error.field || "";
    const values = {
      name,
      points: sent?.points,
      cards: round.hand_size,
      values: cardValues(),
      limit: sheet.ruleset.buy_limit,
      cutter: sheet.players[round.cutter].name,
    };
    if (error.code in WORDED) return { field, message: say(WORDED[error.code], values) };
    if (error.code === "nobody_went_out") return { field: "results", message: say("need_out") };
    if (/\.points$/.test(field)) return { field, message: say("points_range", { name, most: MOST_POINTS }) };
    if (/\.buys$/.test(field)) {
      return { field, message: say("buys_range", { name, most: sheet.ruleset.buy_limit ?? MOST_BUYS }) };
    }
    // Anything else is the API's own message (in the page's language), under the player's name.
    return { field, message: name ? `${name}: ${error.message}` : error.message };
  });
}

/** The API's codes for a round that cannot have happened, and the page's words for each. */
const WORDED = {
  zero_points: "problem_zero_points",
  points_impossible: "problem_points_impossible",
  too_many_cards: "problem_too_many_cards",
  too_many_buys: "problem_too_many_buys",
  buying_not_allowed: "problem_buying_not_allowed",
  bonus_wrong: "problem_bonus_wrong",
  several_went_out: "problem_several_went_out",
};

const roundOf = (number) => sheet.rounds[number - 1];

/** What cards cost in this ruleset, lowest first ("5, 10, 15, 25"). */
function cardValues() {
  const values = [...new Set(Object.values(sheet.ruleset.points))].sort((a, b) => a - b);
  return values.join(", ");
}

// --- two phones, one round -----------------------------------------------------------------------

/** A result as a phone at the table reads it: "went out", "35 (A♠ K♥)", "· 1 buy". */
export function resultText(result, points = sheet.ruleset.points) {
  if (!result) return "";
  let text;
  if (result.went_out) text = say("value_out");
  else if (result.cards) {
    const sum = result.penalty ?? result.cards.reduce((total, card) => total + cardPoints(points, card), 0);
    text = `${sum} (${result.cards.map(cardText).join(" ")})`;
  } else text = String(result.penalty ?? result.points ?? "");
  if (result.buys) text += ` · ${result.buys === 1 ? say("value_buys_one") : say("value_buys", { count: result.buys })}`;
  if (result.bonus) text += ` · ${say("value_bonus", { bonus: result.bonus })}`;
  return text;
}

/**
 * Another phone saved this round first (or changed it meanwhile): show both entries side by
 * side, what it saved and what this phone typed, and let the scorekeeper choose. `theirs` is
 * the round as the sheet now has it; `mine` the body this phone would send.
 */
export function showConflict({ theirs, mine, changed }, { keepTheirs, replace }) {
  const box = $("conflict");
  const head = make(
    "tr",
    {},
    make("th", { scope: "col", text: say("conflict_player") }),
    make("th", { scope: "col", text: say("conflict_theirs") }),
    make("th", { scope: "col", text: say("conflict_mine") }),
  );
  const rows = sheet.players.map((player) => {
    const their = theirs.results.find((result) => result.seat === player.seat);
    const my = mine.results.find((result) => result.seat === player.seat);
    const same = resultText(their) === resultText(my);
    return make(
      "tr",
      { class: `${colour(player.seat)}${same ? "" : " differs"}` },
      make("th", { scope: "row", text: player.name }),
      make("td", { text: resultText(their) }),
      make("td", { text: resultText(my) }),
    );
  });
  if (theirs.stock_ran_out || mine.stock_ran_out) {
    rows.push(
      make(
        "tr",
        {},
        make("th", { scope: "row", text: say("stock_ran_out") }),
        make("td", { text: theirs.stock_ran_out ? say("value_stock") : "" }),
        make("td", { text: mine.stock_ran_out ? say("value_stock") : "" }),
      ),
    );
  }
  const keepButton = make("button", { type: "button", class: "secondary", id: "keep-theirs", text: say("keep_theirs") });
  const replaceButton = make("button", { type: "button", class: "primary", id: "replace-mine", text: say("replace_mine") });
  keepButton.addEventListener("click", keepTheirs);
  replaceButton.addEventListener("click", replace);
  box.replaceChildren(
    make("h3", { text: say(changed ? "conflict_changed" : "conflict_new", { number: theirs.number }) }),
    make("p", { text: say("conflict_lead") }),
    make("table", { class: "conflict-table" }, make("thead", {}, head), make("tbody", {}, ...rows)),
    make("div", { class: "form-buttons" }, keepButton, replaceButton),
  );
  box.hidden = false;
  box.focus();
  box.scrollIntoView({ block: "start" });
}

export function hideConflict() {
  $("conflict").hidden = true;
  $("conflict").replaceChildren();
}
