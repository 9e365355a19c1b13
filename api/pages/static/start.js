// The start page: choose a ruleset and house rules, name the players in seat order, start.
// The sheet is created through the public API with an Idempotency-Key, so a double tap (or a
// retry after a lost answer) makes one sheet, not two.

import {
  api,
  clearErrors,
  make,
  randomKey,
  remember,
  rememberedSheets,
  say,
  showErrors,
  summary,
} from "./common.js";

const form = document.getElementById("start-form");
const list = document.getElementById("player-list");
const rowTemplate = document.getElementById("player-row");
const dealer = document.getElementById("first-dealer");
const buyLimit = document.getElementById("buy-limit");
const status = document.getElementById("start-status");
const startButton = document.getElementById("start-button");
const STARTING_ROWS = 4;

function chosenRuleset() {
  return form.querySelector('input[name="ruleset"]:checked');
}

function rows() {
  return [...list.querySelectorAll(".player-row")];
}

function nameOf(row, index) {
  return row.querySelector(".player-name").value.trim() || say("unnamed", { number: index + 1 });
}

/** Number the rows in seat order again: ids, labels, the buttons' names, the dealer list. */
function renumber() {
  const all = rows();
  const most = Number(chosenRuleset().dataset.maxPlayers);
  all.forEach((row, index) => {
    const input = row.querySelector(".player-name");
    input.id = `player-${index}`;
    input.dataset.field = `players.${index}`;
    input.setAttribute("aria-describedby", `error-players-${index}`);
    const label = row.querySelector(".player-label");
    label.htmlFor = input.id;
    label.textContent = say("player_number", { number: index + 1 });
    const error = row.querySelector(".field-error");
    error.id = `error-players-${index}`;
    error.dataset.errorFor = `players.${index}`;
    const name = nameOf(row, index);
    const [up, down, remove] = row.querySelectorAll("button");
    up.setAttribute("aria-label", say("move_up", { name }));
    down.setAttribute("aria-label", say("move_down", { name }));
    remove.setAttribute("aria-label", say("remove", { name }));
    up.disabled = index === 0;
    down.disabled = index === all.length - 1;
    remove.disabled = all.length === 1;
  });
  document.getElementById("add-player").disabled = all.length >= most;
  const chosen = Number(dealer.value || 0);
  dealer.replaceChildren(
    ...all.map((row, index) => make("option", { value: String(index), text: nameOf(row, index) })),
  );
  dealer.value = String(Math.min(chosen, all.length - 1));
}

function addRow(name = "") {
  const row = rowTemplate.content.firstElementChild.cloneNode(true);
  row.querySelector(".player-name").value = name;
  list.append(row);
  renumber();
  return row;
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
    next?.querySelector(".player-name").focus();
    return;
  }
  renumber();
  // Keep the focus on the moved player's button, so that moving again is one more press.
  const again = row.querySelector(`button[data-action="${action}"]`);
  (again.disabled ? row.querySelector(".player-name") : again).focus();
});
list.addEventListener("input", renumber);

document.getElementById("add-player").addEventListener("click", () => {
  addRow().querySelector(".player-name").focus();
});

/** Show what the chosen ruleset allows: its player range and, where it buys, its limit. */
function showRuleset() {
  const ruleset = chosenRuleset();
  const low = ruleset.dataset.minPlayers;
  const high = ruleset.dataset.maxPlayers;
  document.getElementById("players-hint").textContent = say("players_range", { min: low, max: high });
  const buying = ruleset.dataset.buying === "true";
  document.getElementById("buy-limit-field").hidden = !buying;
  if (!buying) buyLimit.value = "";
  while (rows().length > Number(high)) rows().at(-1).remove();
  renumber();
}
form.addEventListener("change", (event) => {
  if (event.target.name === "ruleset") showRuleset();
});

/** The body of POST /v1/matches, from what the form holds. */
function request() {
  const ruleset = chosenRuleset().value;
  const options = {};
  if (buyLimit.value.trim() !== "" && !document.getElementById("buy-limit-field").hidden) {
    const limit = Number(buyLimit.value);
    options.buy_limit = Number.isInteger(limit) ? limit : buyLimit.value;
  }
  for (const id of ["hand-size", "run-wilds"]) {
    const box = document.getElementById(id);
    if (box.checked) options[box.dataset.field.split(".").at(-1)] = Number(box.value);
  }
  return {
    ruleset: Object.keys(options).length ? { base: ruleset, options } : ruleset,
    players: rows().map((row) => row.querySelector(".player-name").value),
    first_dealer: Number(dealer.value || 0),
  };
}

// One key per distinct request: the same form sent twice is the same sheet.
let pending = { body: null, key: null };

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const body = request();
  const text = JSON.stringify(body);
  if (pending.body !== text) pending = { body: text, key: randomKey() };
  clearErrors(form);
  startButton.disabled = true;
  status.textContent = say("starting");
  try {
    const answer = await api("POST", "/v1/matches", { body, headers: { "Idempotency-Key": pending.key } });
    const sheet = answer.body;
    remember(sheet.id, { token: sheet.edit_token, ...summary(sheet) });
    window.location.assign(`/m/${encodeURIComponent(sheet.id)}`);
  } catch (error) {
    status.textContent = "";
    const problem = error.problem || { detail: String(error) };
    const target = showErrors(form, problem);
    target?.focus();
    startButton.disabled = false;
  }
});

/** The sheets this device opened before, newest first, each with its players and state. */
function showEarlier() {
  const sheets = rememberedSheets();
  const section = document.getElementById("earlier");
  section.hidden = sheets.length === 0;
  document.getElementById("earlier-list").replaceChildren(
    ...sheets.map((sheet) =>
      make(
        "li",
        {},
        make("a", { href: `/m/${encodeURIComponent(sheet.id)}`, text: `${sheet.ruleset || sheet.id}` }),
        make("span", {
          class: "meta",
          text: [
            (sheet.players || []).join(", "),
            say(sheet.status === "finished" ? "finished" : "in_progress"),
            say("rounds_played", { played: sheet.played ?? 0, count: sheet.rounds ?? "?" }),
            sheet.seen ? say("opened", { date: new Date(sheet.seen).toLocaleString(document.documentElement.lang) }) : null,
          ]
            .filter(Boolean)
            .join(" · "),
        }),
      ),
    ),
  );
}

for (let index = 0; index < STARTING_ROWS; index += 1) addRow();
showRuleset();
showEarlier();
