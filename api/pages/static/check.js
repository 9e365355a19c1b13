// The check page: a contract, a meld, a lay-off, a joker swap or a buy, tapped in and sent to
// the API's checks as they change; the verdict shown is the API's, in the page's language.
// Everything chosen lives in the address (docs/pages.md, "Addresses"), so a link to the page
// shows the same ruling.

import { make, say } from "./common.js";
import {
  Asker,
  Places,
  Table,
  cardChip,
  cardLabel,
  cardRow,
  joinCards,
  joinMelds,
  meldReading,
  offers,
  parseCards,
  parseMelds,
  query,
  violationList,
  without,
  writeAddress,
} from "./referee.js";

const $ = (id) => document.getElementById(id);
const form = $("referee");
const MOVES = ["contract", "meld", "layoff", "swap", "buy"];
/** The API's check for each move. */
const PATHS = {
  contract: "/v1/checks/contract",
  meld: "/v1/checks/meld",
  layoff: "/v1/checks/layoff",
  swap: "/v1/checks/joker-swap",
  buy: "/v1/checks/buy",
};

const table = new Table(() => {
  // Another round before any card is tapped in: a place for each meld of its contract.
  if (move === "contract" && !melds().flat().length) places.set(contractPlaces());
  if (move === "buy") fillSeats();
  changed();
});
const places = new Places(changed);
const asker = new Asker({ form, status: $("verdict-line"), show });

let move = MOVES.includes(query.get("move")) ? query.get("move") : "contract";
/** The places of each move chosen before, by move. */
const keptPlaces = new Map();
/** The rest of the hand, kept while it is not part of the question. */
let keptRest = [];
/** Whether the whole hand is tapped in too (the contract check then says what remains). */
let wholeHand = false;

// --- the places of each move ---------------------------------------------------------------------

function meldPlace(index, cards) {
  return {
    key: `melds.${index}`,
    field: `melds.${index}`,
    label: say("meld_number", { number: index + 1 }),
    cards,
    droppable: true,
  };
}

function restPlace(cards) {
  return { key: "rest", field: "hand", label: say("rest_of_hand"), hint: say("rest_hint"), cards };
}

/** The places the address fills in for a move. */
function placesFromAddress() {
  if (move === "contract") {
    let melds = parseMelds(query.get("melds"));
    if (melds.length === 0) {
      const round = table.rounds().find((each) => each.number === table.round());
      melds = (round ? round.contract.melds : [null, null]).map(() => []);
    }
    const hand = query.has("hand") ? parseCards(query.get("hand")) : null;
    wholeHand = hand !== null;
    const found = melds.map((cards, index) => meldPlace(index, cards));
    if (wholeHand) found.push(restPlace(without(hand, melds.flat())));
    return found;
  }
  if (move === "meld") return [{ key: "cards", field: "cards", label: say("the_meld"), cards: parseCards(query.get("cards")) }];
  const onTable = { key: "meld", field: "meld", label: say("table_meld"), cards: parseCards(query.get("meld")) };
  if (move === "layoff")
    return [onTable, { key: "cards", field: "cards", label: say("laid_off"), cards: parseCards(query.get("cards")) }];
  if (move === "swap")
    return [onTable, { key: "card", field: "card", label: say("offered"), cards: parseCards(query.get("card")).slice(0, 1), single: true }];
  return [];
}

function cardsOf(key) {
  return places.get(key)?.cards ?? [];
}

function meldPlaces() {
  return places.places.filter((place) => place.key.startsWith("melds."));
}

/** The keys of the melds asked about, in the order the question lists them. */
function askedMelds() {
  return meldPlaces().filter((place) => place.cards.length).map((place) => place.key);
}

function melds() {
  return meldPlaces().map((place) => place.cards);
}

/** Number the melds again after one was taken away. */
function renumber() {
  const kept = melds();
  const rest = places.get("rest");
  places.set([...kept.map((cards, index) => meldPlace(index, cards)), ...(rest ? [rest] : [])]);
}

// --- the options of each move ------------------------------------------------------------------------

function showOptions() {
  for (const element of form.querySelectorAll("[data-moves]")) {
    element.hidden = !element.dataset.moves.split(" ").includes(move);
  }
  $("round-field").hidden = move === "meld";
  $("players-field").hidden = move === "meld" || move === "buy";
  for (const radio of form.querySelectorAll("input[name=move]")) radio.checked = radio.value === move;
}

function fillSeats() {
  // At a sheet's table the seats are its players.
  $("seats-field").hidden = Boolean(table.sheet);
  const seats = table.sheet ? table.sheet.players.length : Number($("seats").value || 4);
  const onTurn = Math.min(Number($("on-turn").value || 0), seats - 1);
  const previous = $("previous-buyer").value;
  const option = (seat) => make("option", { value: String(seat), text: table.seatName(seat) });
  const all = [...Array(seats).keys()];
  $("on-turn").replaceChildren(...all.map(option));
  $("on-turn").value = String(onTurn);
  $("previous-buyer").replaceChildren(make("option", { value: "", text: say("nobody") }), ...all.map(option));
  if (previous && Number(previous) < seats) $("previous-buyer").value = previous;
  const calling = new Set(callers());
  const used = buysUsed();
  $("callers").replaceChildren(
    ...all
      .filter((seat) => seat !== onTurn)
      .map((seat) =>
        make(
          "li",
          { class: "caller" },
          make("input", { type: "checkbox", id: `caller-${seat}`, value: String(seat), checked: calling.has(seat) }),
          make("label", { for: `caller-${seat}`, text: table.seatName(seat) }),
          make("label", { for: `buys-${seat}`, class: "visually-hidden", text: say("buys_used_of", { name: table.seatName(seat) }) }),
          make("input", {
            type: "number",
            id: `buys-${seat}`,
            class: "buys-used",
            inputmode: "numeric",
            min: "0",
            max: "20",
            value: String(used[seat] ?? 0),
            "data-seat": String(seat),
            "data-field": `buys_used.${seat}`,
          }),
          make("span", { class: "hint", "aria-hidden": "true", text: say("buys_short") }),
        ),
      ),
  );
}

function callers() {
  const boxes = [...$("callers").querySelectorAll("input[type=checkbox]")];
  if (boxes.length) return boxes.filter((box) => box.checked).map((box) => Number(box.value));
  return parseCards(query.get("callers")).map(Number);
}

function buysUsed() {
  const inputs = [...$("callers").querySelectorAll("input.buys-used")];
  if (inputs.length) return Object.fromEntries(inputs.map((input) => [input.dataset.seat, Number(input.value || 0)]));
  return Object.fromEntries(parseCards(query.get("buys_used")).map((pair) => pair.split(":").map(Number)));
}

function readBuyAddress() {
  if (query.get("seats") && !table.sheet) $("seats").value = query.get("seats");
  fillSeats();
  if (query.get("on_turn")) {
    $("on-turn").value = query.get("on_turn");
    fillSeats();
  }
  if (query.get("previous_buyer")) $("previous-buyer").value = query.get("previous_buyer");
}

// --- the question and its address -------------------------------------------------------------

const chosen = (id) => $(id).value || null;

/** The move's default for contract_down: a lay-off is made by a player whose contract is down. */
const downByDefault = () => DOWN_BY_DEFAULT[move] || "no";

/**
 * The question as the API's fields name it, whatever has been tapped in so far: the one
 * description of the page's state, which the body of the check and the address are made from.
 */
function question() {
  const asked = { ruleset: table.ruleset() };
  if (move === "meld") return { ...asked, cards: cardsOf("cards"), type: chosen("meld-type"), order: order() };
  asked.round = table.round();
  if (move === "buy") {
    const calling = callers();
    const used = buysUsed();
    return {
      ...asked,
      seats: table.sheet ? table.sheet.players.length : Number($("seats").value),
      on_turn: Number($("on-turn").value),
      callers: calling,
      buys_used: Object.fromEntries(Object.entries(used).filter(([seat]) => calling.includes(Number(seat)))),
      previous_buyer: chosen("previous-buyer") === null ? null : Number(chosen("previous-buyer")),
    };
  }
  asked.players = table.players();
  asked.jokers = query.get("jokers") ? Number(query.get("jokers")) : null;
  asked.contract_down = $("contract-down").value;
  if (move === "contract") {
    const laid = melds();
    return { ...asked, melds: laid, hand: wholeHand ? [...laid.flat(), ...cardsOf("rest")] : null, order: order() };
  }
  if (move === "layoff") return { ...asked, meld: cardsOf("meld"), cards: cardsOf("cards"), end: chosen("end"), order: order() };
  return { ...asked, meld: cardsOf("meld"), card: cardsOf("card")[0] ?? null, joker: chosen("joker") === null ? null : Number(chosen("joker")) };
}

/** The body of the check: the question without what is not said; null while there is nothing
 * to check yet. */
function body() {
  const asked = Object.fromEntries(Object.entries(question()).filter(([, value]) => value !== null));
  if (move === "contract") {
    // A meld with no card yet is not part of the question; the API's meld i is the i-th
    // meld that has cards (askedMelds()).
    asked.melds = asked.melds.filter((cards) => cards.length);
    return asked.melds.length ? asked : null;
  }
  if (move === "buy") return asked.callers.length ? asked : null;
  if (move === "meld") return asked.cards.length ? asked : null;
  const added = move === "layoff" ? asked.cards.length : "card" in asked;
  return asked.meld.length && added ? asked : null;
}

/** The order the cards are tapped in says nothing: the referee lays each run out itself. */
const order = () => query.get("order") || "any";

/** The address of the question (docs/pages.md, "Addresses"): the table as the address names
 * it, card lists joined, and what is the default left out. */
function address() {
  const { ruleset, round, players, ...asked } = question();
  const state = { ...table.address(), ...(move === "meld" ? { round: null, players: null } : {}) };
  state.move = move === "contract" ? null : move;
  if (move === "buy") {
    state.players = null;
    if (table.sheet) asked.seats = null;
    asked.callers = asked.callers.join(".");
    asked.buys_used = Object.entries(asked.buys_used)
      .filter(([, count]) => count)
      .map(([seat, count]) => `${seat}:${count}`)
      .join(".");
  }
  for (const key of ["cards", "meld", "hand"]) if (Array.isArray(asked[key])) asked[key] = joinCards(asked[key]);
  if (asked.melds) asked.melds = joinMelds(asked.melds);
  if (asked.contract_down === downByDefault()) asked.contract_down = null;
  if (asked.order === "any") asked.order = null;
  return { ...state, ...asked, jokers: query.get("jokers") };
}

function changed() {
  // A meld taken away leaves a gap in the numbering: the melds are numbered again.
  if (move === "contract" && meldPlaces().some((place, index) => place.key !== `melds.${index}`)) renumber();
  if (move === "swap") fillJokers();
  writeAddress(address());
  const empty = move === "buy" ? "empty_buy" : "empty_cards";
  asker.soon(PATHS[move], body(), say(empty));
}

/** The wild card taken, by its place in the meld: needed when the meld holds more than one. */
function fillJokers() {
  const select = $("joker");
  const kept = select.value || query.get("joker") || "";
  select.replaceChildren(
    make("option", { value: "", text: say("only_wild") }),
    // Which cards are wild is the ruleset's to say (a two in May I?): every card is offered,
    // by its place in the meld, and the API says if the one chosen is no wild card.
    ...cardsOf("meld").map((card, index) =>
      make("option", { value: String(index), text: say("card_at", { number: index + 1, card: cardLabel(card) }) }),
    ),
  );
  if (offers(select, kept)) select.value = kept;
}

// --- the verdict ------------------------------------------------------------------------------------

/** The verdict's line for each move: legal, not legal. */
const HEADLINES = {
  contract: ["valid_contract", "invalid_contract"],
  meld: ["valid_meld", "invalid_meld"],
  layoff: ["valid_layoff", "invalid_layoff"],
  swap: ["valid_swap", "invalid_swap"],
};
const OBLIGATIONS = { own_meld_now: "obligation_own_meld_now", table_this_turn: "obligation_table_this_turn", hand: "obligation_hand" };

function show(verdict) {
  places.clearReadings();
  const details = $("verdict-details");
  details.replaceChildren();
  form.dataset.valid = verdict ? String(verdict.valid ?? verdict.winner !== null) : "";
  if (!verdict) return;
  const line = $("verdict-line");
  if (move === "buy") return showBuy(verdict, line, details);
  line.textContent = say(HEADLINES[move][verdict.valid ? 0 : 1]);
  if (verdict.contract) details.append(make("p", { class: "contract-line", text: say("contract_is", { contract: verdict.contract.text }) }));
  const loose = verdict.violations.filter((violation) => violation.meld === null || violation.meld === undefined);
  if (move === "contract") {
    const keys = askedMelds();
    verdict.melds.forEach((meld, index) => {
      const own = verdict.violations.filter((violation) => violation.meld === index);
      places.showReading(keys[index], meld, own.length ? violationList(own) : null);
    });
    if (verdict.remaining) {
      details.append(
        make("p", { class: "remaining" }, make("span", { text: say("remaining") }), " ", verdict.remaining.length ? cardRow(verdict.remaining) : say("no_cards")),
        make("p", { class: "goes-out", text: say(verdict.goes_out ? "goes_out" : "does_not_go_out") }),
      );
    }
  } else if (move === "meld") {
    places.showReading("cards", verdict.meld, null);
  } else {
    const after = move === "layoff" ? "after_layoff" : "after_swap";
    if (verdict.valid) details.append(make("h3", { text: say(after) }), meldReading(verdict.meld));
    if (move === "swap" && verdict.valid && verdict.freed) {
      details.append(
        make("p", {}, make("span", { text: say("freed") }), " ", cardChip(verdict.freed)),
        make("p", { class: "obligation", text: say(OBLIGATIONS[verdict.obligation] || verdict.obligation) }),
      );
    }
  }
  if (loose.length) details.append(violationList(loose));
}

function showBuy(verdict, line, details) {
  line.textContent =
    verdict.winner === null
      ? say("nobody_buys")
      : verdict.penalty_cards === 0
      ? say("buys_only", { name: table.seatName(verdict.winner) })
      : say(verdict.penalty_cards === 1 ? "buys_one" : "buys_cards", { name: table.seatName(verdict.winner), count: verdict.penalty_cards });
  if (verdict.refused.length) {
    details.append(
      make("h3", { text: say("refused_callers") }),
      make(
        "ul",
        { class: "violations" },
        ...verdict.refused.map((refusal) => make("li", { "data-code": refusal.code, text: say("refusal", { name: table.seatName(refusal.seat), message: refusal.message }) })),
      ),
    );
  }
}

// --- wiring -----------------------------------------------------------------------------------------

/** Where the question starts: a lay-off is made by a player whose contract is down. */
const DOWN_BY_DEFAULT = { layoff: "earlier_turn" };

function startMove(next) {
  keptPlaces.set(move, places.places);
  move = next;
  $("contract-down").value = downByDefault();
  showOptions();
  // Each move keeps its cards while another is looked at.
  places.set(keptPlaces.get(move) || (move === "contract" ? contractPlaces() : placesFromAddress()));
  if (move === "buy") fillSeats();
  changed();
}

/** A fresh contract: an empty meld for each meld of the round's contract. */
function contractPlaces() {
  const round = table.rounds().find((each) => each.number === table.round());
  const found = (round ? round.contract.melds : [null, null]).map((_, index) => meldPlace(index, []));
  if (wholeHand) found.push(restPlace([]));
  return found;
}

for (const radio of form.querySelectorAll("input[name=move]")) {
  radio.addEventListener("change", () => {
    if (radio.checked) startMove(radio.value);
  });
}
for (const id of ["contract-down", "meld-type", "end", "joker", "seats", "on-turn", "previous-buyer"]) {
  $(id).addEventListener("change", () => {
    if (id === "seats" || id === "on-turn") fillSeats();
    changed();
  });
}
$("callers").addEventListener("change", changed);
$("callers").addEventListener("input", changed);
$("add-meld").addEventListener("click", () => {
  const rest = places.get("rest");
  const laid = melds();
  places.set([...laid.map((cards, index) => meldPlace(index, cards)), meldPlace(laid.length, []), ...(rest ? [rest] : [])]);
  places.choose(places.get(`melds.${laid.length}`), { focus: false });
  changed();
});
$("whole-hand").addEventListener("change", () => {
  wholeHand = $("whole-hand").checked;
  if (!wholeHand) keptRest = cardsOf("rest");
  const laid = melds().map((cards, index) => meldPlace(index, cards));
  places.set(wholeHand ? [...laid, restPlace(keptRest)] : laid);
  // The focus stays on the box: the next card tapped goes to the rest of the hand.
  if (wholeHand) places.choose(places.get("rest"), { focus: false });
  changed();
});
form.addEventListener("submit", (event) => event.preventDefault());

await table.load();
$("contract-down").value = downByDefault();
for (const [id, key] of [["contract-down", "contract_down"], ["meld-type", "type"], ["end", "end"]]) {
  if (query.get(key)) $(id).value = query.get(key);
}
showOptions();
places.set(placesFromAddress());
$("whole-hand").checked = wholeHand;
if (move === "swap") fillJokers();
if (move === "buy") readBuyAddress();
changed();
