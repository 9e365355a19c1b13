// The start page: name the players in seat order, keep last time's ruleset or choose another,
// start. What the page can tell before asking (a name too long, two equal names, too few or too
// many players for the ruleset) it says in its own words without sending anything; what the API
// refuses is said in the page's words too, naming the player as the page labels them. The sheet
// is created with an Idempotency-Key, so a double tap (or a retry after a lost answer) makes one
// sheet, not two.

import {
  api,
  clearErrors,
  forget,
  lastRuleset,
  make,
  nextDealer,
  randomKey,
  remember,
  rememberRuleset,
  rememberedSheets,
  rulesetRequest,
  say,
  showErrors,
  summary,
} from "./common.js";

const $ = (id) => document.getElementById(id);
const form = $("start-form");
const list = $("player-list");
const rowTemplate = $("player-row");
const dealer = $("first-dealer");
const buyLimit = $("buy-limit");
const titleInput = $("title");
const status = $("start-status");
const startButton = $("start-button");
const rulesetList = $("ruleset-list");
const changeButton = $("change-ruleset");
const STARTING_ROWS = 4;
// "My matches" shows this many at first (a row of them on a wide screen), the rest behind a
// button: on a phone the names to type stay near the top.
const MATCHES_SHOWN = window.matchMedia("(min-width: 40rem)").matches ? 3 : 2;
const NAME_MOST = Number(rowTemplate.content.querySelector(".player-name").dataset.most);
const TITLE_MOST = Number(titleInput.dataset.most);
// The options the form has a control for; any other came with a remembered ruleset and is kept.
const OPTION_BOXES = ["hand-size", "run-wilds"];

// --- the players ---------------------------------------------------------------------------

/** A name as the API keeps it: trimmed and composed (NFC). */
function cleaned(text) {
  return text.trim().normalize("NFC");
}

/** Characters as the API counts them: code points, so an emoji is one, not two. */
function length(text) {
  return [...text].length;
}

/** Two names the table cannot tell apart, as the API compares them (ignoring case). */
function folded(text) {
  return cleaned(text).toLowerCase();
}

function rows() {
  return [...list.querySelectorAll(".player-row")];
}

function nameInput(row) {
  return row.querySelector(".player-name");
}

/** The rows with a name: an empty row is no player. */
function seated() {
  return rows().filter((row) => cleaned(nameInput(row).value) !== "");
}

/** How the page labels a row: "Player 3", counted from 1. */
function labelOf(row) {
  return say("player_number", { number: rows().indexOf(row) + 1 });
}

/** The row's name, or "player 3" while it has none. */
function nameOf(row) {
  return cleaned(nameInput(row).value) || say("unnamed", { number: rows().indexOf(row) + 1 });
}

// The row that deals round 1: the choice follows the player when the rows are reordered.
let dealerRow = null;

/** The dealer's list: the players named so far, in seat order (the API's seats). */
function showDealers() {
  const seats = seated();
  const chosen = seats.includes(dealerRow) ? seats.indexOf(dealerRow) : 0;
  const options = seats.length
    ? seats.map((row, seat) => make("option", { value: String(seat), text: nameOf(row) }))
    : [make("option", { value: "0", text: say("player_number", { number: 1 }) })];
  dealer.replaceChildren(...options);
  dealer.value = String(chosen);
}

dealer.addEventListener("change", () => {
  dealerRow = seated()[Number(dealer.value)] || null;
});

/** Number the rows in seat order again: ids, labels, the buttons' names, the dealer list. */
function renumber() {
  const all = rows();
  all.forEach((row, index) => {
    const input = nameInput(row);
    input.id = `player-${index}`;
    input.dataset.field = `players.${index}`;
    input.setAttribute("aria-describedby", `error-players-${index} error-players`);
    const label = row.querySelector(".player-label");
    label.htmlFor = input.id;
    label.textContent = say("player_number", { number: index + 1 });
    const error = row.querySelector(".field-error");
    error.id = `error-players-${index}`;
    error.dataset.errorFor = `players.${index}`;
    const name = nameOf(row);
    const [up, down, remove] = row.querySelectorAll("button");
    up.setAttribute("aria-label", say("move_up", { name }));
    down.setAttribute("aria-label", say("move_down", { name }));
    remove.setAttribute("aria-label", say("remove", { name }));
    up.disabled = index === 0;
    down.disabled = index === all.length - 1;
    remove.disabled = all.length === 1;
  });
  $("add-player").disabled = all.length >= range().high;
  showDealers();
}

function addRow(name = "") {
  const row = rowTemplate.content.firstElementChild.cloneNode(true);
  nameInput(row).value = name;
  list.append(row);
  renumber();
  return row;
}

/** The rows hold these names, one each, in this order. */
function seatPlayers(names) {
  list.replaceChildren();
  for (const name of names) addRow(name);
  while (rows().length < Math.min(range().low, STARTING_ROWS)) addRow();
}

list.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-action]");
  if (!button) return;
  const row = button.closest(".player-row");
  const action = button.dataset.action;
  if (action === "up" && row.previousElementSibling) row.previousElementSibling.before(row);
  if (action === "down" && row.nextElementSibling) row.nextElementSibling.after(row);
  if (action === "remove") {
    const next = row.nextElementSibling || row.previousElementSibling;
    row.remove();
    renumber();
    nameInput(next).focus();
    return;
  }
  renumber();
  // Keep the focus on the moved player's button, so that moving again is one more press.
  const again = row.querySelector(`button[data-action="${action}"]`);
  (again.disabled ? nameInput(row) : again).focus();
});

list.addEventListener("input", (event) => {
  // A name being corrected is no longer what was refused.
  const row = event.target.closest(".player-row");
  const error = row?.querySelector(".field-error");
  if (error && !error.hidden) {
    error.hidden = true;
    error.textContent = "";
    event.target.removeAttribute("aria-invalid");
  }
  renumber();
});

// Enter moves on to the next name, as the table calls them out; it never starts the match. On
// the last row it adds one while the ruleset seats more, and otherwise goes to the start button.
list.addEventListener("keydown", (event) => {
  if (event.key !== "Enter" || event.isComposing || !event.target.classList.contains("player-name")) return;
  event.preventDefault();
  const row = event.target.closest(".player-row");
  const next = row.nextElementSibling;
  if (next) nameInput(next).focus();
  else if (cleaned(event.target.value) !== "" && rows().length < range().high) nameInput(addRow()).focus();
  else startButton.focus();
});

$("add-player").addEventListener("click", () => {
  nameInput(addRow()).focus();
});

// --- the ruleset ---------------------------------------------------------------------------

// House options of a remembered ruleset that the form has no control for: kept as they were
// until another ruleset is chosen.
let keptOptions = {};

function chosenRuleset() {
  return form.querySelector('input[name="ruleset"]:checked');
}

function rulesetName(radio) {
  return radio.closest(".ruleset-choice").querySelector(".ruleset-name").textContent.trim();
}

/** How many the chosen ruleset seats, and its name for the messages. */
function range() {
  const radio = chosenRuleset();
  return {
    low: Number(keptOptions.min_players ?? radio.dataset.minPlayers),
    high: Number(keptOptions.max_players ?? radio.dataset.maxPlayers),
    name: rulesetName(radio),
  };
}

/** The house options the form holds, with those kept from a remembered ruleset. */
function options() {
  const chosen = { ...keptOptions };
  if (buyLimit.value.trim() !== "" && !$("buy-limit-field").hidden) {
    const limit = Number(buyLimit.value);
    chosen.buy_limit = Number.isInteger(limit) ? limit : buyLimit.value;
  }
  for (const id of OPTION_BOXES) {
    const box = $(id);
    if (box.checked) chosen[box.dataset.field.split(".").at(-1)] = Number(box.value);
  }
  return chosen;
}

function labelText(id) {
  return document.querySelector(`label[for="${id}"]`).textContent.replace(/\s+/g, " ").trim();
}

/** The chosen ruleset in a few words, shown while the list of rulesets is closed. */
function showChosen() {
  const radio = chosenRuleset();
  const choice = radio.closest(".ruleset-choice");
  $("chosen-name").textContent = rulesetName(radio);
  $("chosen-facts").textContent = choice
    .querySelector(".ruleset-facts")
    .textContent.replace(/\s+/g, " ")
    .trim();
  const rules = [];
  if (buyLimit.value.trim() !== "" && !$("buy-limit-field").hidden)
    rules.push(`${labelText("buy-limit")}: ${buyLimit.value.trim()}`);
  for (const id of OPTION_BOXES) if ($(id).checked) rules.push(labelText(id));
  const house = $("chosen-house");
  const parts = [say("house_rules"), " ", rules.join("; ")];
  if (Object.keys(keptOptions).length) {
    // What the form cannot show, the rules page says in words.
    const query = new URLSearchParams({ options: JSON.stringify(options()) });
    const rulesLink = make("a", {
      href: `/rulesets/${encodeURIComponent(radio.value)}?${query}`,
      text: say("more_house_rules"),
    });
    parts.push(rules.length ? "; " : "", rulesLink);
  }
  house.replaceChildren(...parts);
  house.hidden = rules.length === 0 && Object.keys(keptOptions).length === 0;
}

/** Show what the chosen ruleset allows: its player range and, where it buys, its limit. */
function showRuleset() {
  const radio = chosenRuleset();
  const { low, high, name } = range();
  $("players-hint").textContent = say("players_range", { ruleset: name, min: low, max: high });
  const buying = radio.dataset.buying === "true";
  $("buy-limit-field").hidden = !buying;
  if (!buying) buyLimit.value = "";
  // Rows left empty beyond what the ruleset seats go; a name typed stays, and is counted.
  while (rows().length > high && cleaned(nameInput(rows().at(-1)).value) === "") rows().at(-1).remove();
  renumber();
  showChosen();
}

function openList(open) {
  rulesetList.hidden = !open;
  changeButton.setAttribute("aria-expanded", String(open));
  changeButton.textContent = say(open ? "keep_ruleset" : "change_ruleset");
}

changeButton.addEventListener("click", () => {
  const open = rulesetList.hidden;
  openList(open);
  if (open) chosenRuleset().focus();
});

form.addEventListener("change", (event) => {
  if (event.target.name === "ruleset") {
    keptOptions = {}; // they were another ruleset's
    showRuleset();
  } else if (event.target === buyLimit || OPTION_BOXES.includes(event.target.id)) {
    showChosen();
  }
});
buyLimit.addEventListener("input", showChosen);

/** Choose a ruleset and its house options (last time's, or a remembered match's). */
function choose(id, chosen = {}) {
  const radio = document.getElementById(`ruleset-${id}`);
  if (!radio || radio.name !== "ruleset") return false;
  radio.checked = true;
  const rest = { ...chosen };
  buyLimit.value = "";
  if (radio.dataset.buying === "true" && Number.isInteger(rest.buy_limit)) {
    buyLimit.value = String(rest.buy_limit);
    delete rest.buy_limit;
  }
  for (const id of OPTION_BOXES) {
    const box = $(id);
    const option = box.dataset.field.split(".").at(-1);
    box.checked = rest[option] === Number(box.value);
    if (box.checked) delete rest[option];
  }
  keptOptions = rest;
  showRuleset();
  return true;
}

// --- starting ------------------------------------------------------------------------------

/** What the page can tell is wrong before asking: each as the API would name its field. */
function localProblems() {
  const problems = [];
  const seats = seated();
  const seen = new Map();
  for (const row of seats) {
    const name = cleaned(nameInput(row).value);
    const field = nameInput(row).dataset.field;
    const player = labelOf(row);
    if (length(name) > NAME_MOST)
      problems.push({ field, message: say("name_too_long", { player, most: NAME_MOST }) });
    const first = seen.get(folded(name));
    if (first) {
      const other = say("unnamed", { number: rows().indexOf(first) + 1 });
      problems.push({ field, message: say("name_taken", { player, name, other }) });
    } else {
      seen.set(folded(name), row);
    }
  }
  const { low, high, name } = range();
  if (seats.length < low || seats.length > high) {
    const key = seats.length < low ? "too_few_players" : "too_many_players";
    problems.push({ field: "players", message: say(key, { ruleset: name, min: low, max: high }) });
  }
  if (length(cleaned(titleInput.value)) > TITLE_MOST) {
    problems.push({ field: "title", message: say("title_too_long", { most: TITLE_MOST }) });
  }
  return problems;
}

/** The characters the API named as refused ("U+202E"), as its message writes them. */
function refusedCharacters(message) {
  return [...new Set(String(message).match(/U\+[0-9A-F]{4,6}/g) || [])].join(" ");
}

/** A name the API refused, in the page's words; `sent` are the rows in the order sent. */
function nameRefusal(row, message, sent) {
  const player = labelOf(row);
  const name = cleaned(nameInput(row).value);
  if (length(name) > NAME_MOST) return say("name_too_long", { player, most: NAME_MOST });
  // The API folds case fully ("Straße" is "STRASSE"); upper then lower case comes close.
  const fullFold = (text) => cleaned(text).toUpperCase().toLowerCase();
  const earlier = sent
    .slice(0, sent.indexOf(row))
    .find((other) => fullFold(nameInput(other).value) === fullFold(name));
  if (earlier)
    return say("name_taken", {
      player,
      name,
      other: say("unnamed", { number: rows().indexOf(earlier) + 1 }),
    });
  const characters = refusedCharacters(message);
  if (characters) return say("name_characters", { player, characters });
  return say("field_message", { field: player, message });
}

/** One of the API's errors[] in the page's words, at the field as the page names it. */
function inPageWords(error, sent) {
  const field = error.field || "";
  const message = error.message || "";
  const seat = /^players\.(\d+)/.exec(field);
  if (seat && sent[Number(seat[1])]) {
    const row = sent[Number(seat[1])];
    return { field: nameInput(row).dataset.field, message: nameRefusal(row, message, sent) };
  }
  if (field === "players") {
    const { low, high, name } = range();
    const count = sent.length;
    if (count < low || count > high) {
      const key = count < low ? "too_few_players" : "too_many_players";
      return { field, message: say(key, { ruleset: name, min: low, max: high }) };
    }
    return {
      field,
      message: say("field_message", { field: form.querySelector(".players legend").textContent, message }),
    };
  }
  if (field === "title") {
    const characters = refusedCharacters(message);
    if (characters) return { field, message: say("title_characters", { characters }) };
    if (length(cleaned(titleInput.value)) > TITLE_MOST)
      return { field, message: say("title_too_long", { most: TITLE_MOST }) };
  }
  // Any other field: the API's message (in the page's language), after the field's own label.
  const control = [...form.querySelectorAll("[data-field]")].find(
    (each) => field === each.dataset.field || field.startsWith(`${each.dataset.field}.`),
  );
  const label =
    control?.labels?.[0]?.textContent.replace(/\s+/g, " ").trim() ||
    (field.startsWith("ruleset") ? $("chosen-title").textContent : "");
  return { field, message: label ? say("field_message", { field: label, message }) : message };
}

/** Show the problems next to their fields and move the focus to the first one. */
function showProblems(problems) {
  const count = problems.find((problem) => problem.field === "players");
  const others = problems.filter((problem) => problem !== count);
  let target = others.length ? showErrors(form, { errors: others }) : (clearErrors(form), null);
  if (count) {
    // The player count belongs to no one name: its message stands under the rows, and the
    // focus goes where the table acts on it (an empty row, or adding one).
    const slot = $("error-players");
    slot.textContent = count.message;
    slot.hidden = false;
    const empty = rows().find((row) => cleaned(nameInput(row).value) === "");
    const few = seated().length < range().low;
    target = target || (few ? (empty ? nameInput(empty) : $("add-player")) : nameInput(seated().at(-1)));
  }
  // A refusal inside the closed list of rulesets opens it.
  if (
    rulesetList.hidden &&
    [...rulesetList.querySelectorAll("[data-error-for]")].some((slot) => !slot.hidden)
  )
    openList(true);
  target?.focus();
}

/** The body of POST /v1/matches, from what the form holds; empty rows are no players. */
function request(seats) {
  const body = {
    ruleset: rulesetRequest(chosenRuleset().value, options()),
    players: seats.map((row) => cleaned(nameInput(row).value)),
    first_dealer: Math.max(seats.indexOf(dealerRow), 0),
  };
  const title = cleaned(titleInput.value);
  if (title) body.title = title;
  return body;
}

// One key per distinct request: the same form sent twice is the same sheet.
let pending = { body: null, key: null };

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (startButton.disabled) return;
  status.textContent = "";
  const problems = localProblems();
  if (problems.length) {
    showProblems(problems);
    return;
  }
  clearErrors(form);
  const seats = seated();
  const body = request(seats);
  const text = JSON.stringify(body);
  if (pending.body !== text) pending = { body: text, key: randomKey() };
  startButton.disabled = true;
  status.textContent = say("starting");
  try {
    const answer = await api("POST", "/v1/matches", { body, headers: { "Idempotency-Key": pending.key } });
    const sheet = answer.body;
    remember(sheet.id, { token: sheet.edit_token, ...summary(sheet) });
    rememberRuleset(chosenRuleset().value, options());
    window.location.assign(`/m/${encodeURIComponent(sheet.id)}`);
  } catch (error) {
    status.textContent = "";
    const problem = error.problem || { detail: String(error) };
    const errors =
      problem.errors && problem.errors.length
        ? problem.errors
        : [{ field: "", message: problem.detail || problem.title }];
    showProblems(errors.map((each) => inPageWords(each, seats)));
    startButton.disabled = false;
  }
});

// --- my matches ----------------------------------------------------------------------------

const dates = new Intl.DateTimeFormat(document.documentElement.lang, { dateStyle: "medium" });

/** A remembered ruleset as `{id, name, options}`; a summary from before kept only its name. */
function rulesetOf(facts) {
  if (facts.ruleset && typeof facts.ruleset === "object") return facts.ruleset;
  return { id: null, name: typeof facts.ruleset === "string" ? facts.ruleset : null, options: {} };
}

/** The ruleset's name in the page's language when it is a preset here, else as remembered. */
function rulesetTitle(ruleset) {
  const radio = ruleset.id ? document.getElementById(`ruleset-${ruleset.id}`) : null;
  return radio && radio.name === "ruleset" ? rulesetName(radio) : ruleset.name || "";
}

/** What a match is called in the list: its title, or its ruleset's name. */
function matchName(facts) {
  return facts.title || rulesetTitle(rulesetOf(facts)) || facts.id;
}

function matchDate(facts) {
  const when = new Date(facts.created || facts.seen || "");
  return Number.isNaN(when.getTime())
    ? null
    : make("time", { datetime: when.toISOString(), text: dates.format(when) });
}

function matchItem(facts) {
  const name = matchName(facts);
  const players = (facts.players || []).join(", ");
  const nameId = `match-${facts.id}`;
  const meta = [
    facts.title ? rulesetTitle(rulesetOf(facts)) : null,
    say(facts.status === "finished" ? "finished" : "in_progress"),
    say("rounds_played", { played: facts.played ?? 0, count: facts.rounds ?? "?" }),
  ].filter(Boolean);
  const date = matchDate(facts);
  return make(
    "li",
    { class: "match", "data-id": facts.id },
    make(
      "div",
      { class: "match-head" },
      make("a", { class: "match-name", id: nameId, href: `/m/${encodeURIComponent(facts.id)}`, text: name }),
      make("button", {
        type: "button",
        class: "secondary",
        "data-forget": facts.id,
        "aria-label": say("forget_label", { match: players ? `${name} (${players})` : name }),
        text: say("forget"),
      }),
    ),
    players ? make("p", { class: "match-players", text: players }) : null,
    make("p", { class: "meta" }, meta.join(" · "), date ? " · " : null, date),
    facts.players?.length
      ? make("button", {
          type: "button",
          class: "secondary again",
          "data-again": facts.id,
          "aria-describedby": nameId,
          text: say("again"),
        })
      : null,
  );
}

let showingAll = false;

/** The sheets this device keeps, newest first; past a few, the rest behind a button. */
function showEarlier() {
  const sheets = rememberedSheets();
  const items = $("earlier-list");
  const kept = [...items.querySelectorAll(".forgotten")]; // an undo still on offer stays
  const section = $("earlier");
  section.hidden = sheets.length === 0 && kept.length === 0;
  items.replaceChildren(...kept, ...sheets.map(matchItem));
  const matches = [...items.querySelectorAll(".match")];
  matches.forEach((item, index) => {
    item.hidden = !showingAll && index >= MATCHES_SHOWN;
  });
  const more = $("earlier-more");
  more.hidden = matches.length <= MATCHES_SHOWN;
  more.setAttribute("aria-expanded", String(showingAll));
  more.textContent = showingAll ? say("fewer_matches") : say("all_matches", { count: matches.length });
}

$("earlier-more").addEventListener("click", () => {
  showingAll = !showingAll;
  showEarlier();
});

/** Fill the form for the next match of a remembered table: same seats, same ruleset, next dealer. */
function again(facts) {
  const ruleset = rulesetOf(facts);
  if (ruleset.id && choose(ruleset.id, ruleset.options || {})) openList(false);
  seatPlayers(facts.players || []);
  const seats = seated();
  dealerRow = seats[nextDealer(facts.firstDealer, seats.length)] || null;
  titleInput.value = facts.title || "";
  clearErrors(form);
  renumber();
  status.textContent = say("again_ready", { dealer: dealerRow ? nameOf(dealerRow) : "" });
  startButton.focus();
}

$("earlier-list").addEventListener("click", (event) => {
  const button = event.target.closest("button");
  if (!button) return;
  if (button.dataset.again) {
    again(rememberedSheets().find((facts) => facts.id === button.dataset.again) || {});
  } else if (button.dataset.forget) {
    // Forgetting drops the edit token too, so it can be undone until the page is left.
    const id = button.dataset.forget;
    const facts = rememberedSheets().find((each) => each.id === id);
    const item = button.closest("li");
    forget(id);
    if (!facts) return showEarlier();
    const noteId = `forgotten-${id}`;
    const note = make("span", {
      id: noteId,
      role: "status",
      text: say("forgotten", { match: matchName(facts) }),
    });
    const undo = make("button", {
      type: "button",
      class: "secondary",
      "data-undo": id,
      "aria-describedby": noteId,
      text: say("undo"),
    });
    const gone = make("li", { class: "forgotten" }, note, " ", undo);
    undo.addEventListener("click", () => {
      remember(id, facts);
      gone.remove();
      showEarlier();
      $("earlier-list")
        .querySelector(`[data-forget="${CSS.escape(id)}"]`)
        ?.focus();
    });
    item.replaceWith(gone);
    showEarlier();
    undo.focus();
  }
});

// --- the page as it opens ------------------------------------------------------------------

// Last time's ruleset, chosen and closed: the table changes it only when it plays another.
const last = lastRuleset();
const remembered = last && choose(last.id, last.options);
openList(!remembered);
if (!remembered) showRuleset();
for (let index = rows().length; index < STARTING_ROWS; index += 1) addRow();
showEarlier();
