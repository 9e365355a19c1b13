// What the check page and the hand page share: the ruleset and round chosen, the cards tapped
// into each place (a meld, the rest of a hand...), the address that holds all of it, and asking
// the API. No rule of the game is here: every verdict shown is the API's.

import { api, clearErrors, copyField, make, say, showErrors } from "./common.js";

const $ = (id) => document.getElementById(id);
// Each card's label and name, as the card grid shows them ("7♥", "seven of hearts").
const names = Object.fromEntries(
  [...document.querySelectorAll("#card-grid [data-card]")].map((button) => [
    button.dataset.card,
    [button.firstChild.textContent, button.dataset.name],
  ]),
);

// --- cards as the table sees them ------------------------------------------------------------------

/** How the page shows a card ("7♥", "Joker"); a text the API would refuse, as it was typed. */
export const cardLabel = (card) => (names[card] ? names[card][0] : card);
/** A card's name for a screen reader ("seven of hearts"). */
export const cardName = (card) => (names[card] ? names[card][1] : card);

function suitClass(card) {
  const suit = card.slice(-1);
  return names[card] && card !== "JK" ? `suit-${suit}` : card === "JK" ? "joker" : "unknown";
}

/**
 * A card as it lies on the table; with `standsFor` (a card, or a rank in a set), the wild
 * card's reading: "Joker = 6♥".
 */
export function cardChip(card, standsFor = null) {
  if (card === null || card === undefined) return make("span", { class: "card unknown", text: "?" });
  const chip = make("span", { class: `card ${suitClass(card)}`, text: cardLabel(card) });
  if (standsFor === null) return chip;
  const reading = names[standsFor] ? cardLabel(standsFor) : standsFor;
  chip.classList.add("wild");
  chip.append(make("span", { class: "stands-for", text: say("stands_for", { card: reading }) }));
  chip.setAttribute("aria-label", say("wild_reading", { card: cardName(card), reading }));
  return chip;
}

/** A row of cards, read as the API read them: each wild card with what it stands for. */
export function cardRow(cards, wilds = []) {
  const readings = new Map(wilds.map((wild) => [wild.index, wild.stands_for]));
  return make(
    "span",
    { class: "card-row" },
    ...cards.map((card, index) => cardChip(card, readings.has(index) ? readings.get(index) : null)),
  );
}

/** What the API read a meld as: "Set (7)", "Run (♥)". */
export function meldTitle(meld) {
  if (meld.type === "set") return say("set_of", { rank: meld.rank ?? "?" });
  if (meld.type === "run") return say("run_in", { suit: cardLabel(`A${meld.suit}`).slice(1) });
  return say("meld_unread");
}

/** A meld as the API read it: its kind and its cards in table order. */
export function meldReading(meld) {
  return make("p", { class: "reading" }, make("span", { class: "meld-type", text: meldTitle(meld) }), " ", cardRow(meld.cards, meld.wilds));
}

/** The broken rules, each in the API's words. */
export function violationList(violations) {
  return make(
    "ul",
    { class: "violations" },
    ...violations.map((violation) => make("li", { "data-code": violation.code, text: violation.message })),
  );
}

// --- the address ----------------------------------------------------------------------------------

/** Cards in an address: dot-joined ("7H.7S.JK"). */
export const parseCards = (text) => (text ? text.split(".").filter(Boolean) : []);
export const joinCards = (cards) => cards.join(".");
/** Melds in an address: each dot-joined, a comma between melds ("7H.7S.7D,4H.5H.JK.7H"). */
export const parseMelds = (text) => (text ? text.split(",").map(parseCards) : []);
export const joinMelds = (melds) => melds.map(joinCards).join(",");

/** Cards of `all` that are not in `taken`, copy by copy: the rest of a hand. */
export function without(all, taken) {
  const rest = [...all];
  for (const card of taken) {
    const at = rest.indexOf(card);
    if (at >= 0) rest.splice(at, 1);
  }
  return rest;
}

export const query = new URLSearchParams(window.location.search);

/** Write the state into the address (replacing it: a tap is not a page to go back to). */
export function writeAddress(entries) {
  const pairs = [];
  for (const [key, value] of Object.entries({ ...entries, lang: query.get("lang") })) {
    if (value === null || value === undefined || value === "") continue;
    // Commas, dots and colons are left as they are: the address stays readable
    // (melds=7H.7S.7D,4H.5H.JK.7H), and a URL may hold them in its query as they are.
    const written = encodeURIComponent(String(value)).replace(/%2C/g, ",").replace(/%3A/g, ":");
    pairs.push(`${key}=${written}`);
  }
  const address = `${window.location.pathname}?${pairs.join("&")}`;
  history.replaceState(null, "", address);
  const link = $("ruling-link");
  if (link) link.value = `${window.location.origin}${address}`;
}

/** Whether a select has an option of this value. */
export const offers = (select, value) => [...select.options].some((option) => option.value === value);

// --- the ruleset and the round ------------------------------------------------------------------

/**
 * The ruleset, round and table size chosen, from the address: a preset (`ruleset`), or the
 * ruleset and players of a stored sheet (`sheet`), read from the API.
 */
export class Table {
  constructor(onChange) {
    this.onChange = onChange;
    this.rulesetSelect = $("ruleset");
    this.roundSelect = $("round");
    this.playersSelect = $("players");
    this.sheet = null;
    /** Each preset as GET /v1/rulesets/{id} answers it, once asked. */
    this.presets = new Map();
    for (const select of [this.rulesetSelect, this.roundSelect, this.playersSelect]) {
      select.addEventListener("change", async () => {
        if (select === this.rulesetSelect) {
          await this.readPreset(select.value);
          this.fillRounds();
        }
        this.onChange();
      });
    }
  }

  /** A preset's rounds and table sizes, in the page's language, as the API says them. */
  async readPreset(id) {
    if (this.presets.has(id) || id === "sheet") return;
    try {
      const answer = await api("GET", `/v1/rulesets/${encodeURIComponent(id)}`);
      this.presets.set(id, answer.body);
    } catch (error) {
      // No such preset: its check answers why, next to the field, when it is asked.
    }
  }

  /** Read the address; with `sheet`, ask the API for that sheet's ruleset and players. */
  async load() {
    const sheetId = query.get("sheet");
    if (sheetId) {
      try {
        const answer = await api("GET", `/v1/matches/${encodeURIComponent(sheetId)}`);
        this.sheet = answer.body;
        const own = make("option", { value: "sheet", text: say("sheet_rules", { name: this.sheet.ruleset.name }) });
        this.rulesetSelect.prepend(own);
        this.rulesetSelect.value = "sheet";
      } catch (error) {
        $("table-notice").textContent = say("sheet_unreadable", { detail: error.message });
        $("table-notice").hidden = false;
      }
    }
    if (!this.sheet) {
      const wanted = query.get("ruleset");
      // Not a preset: the API says so, next to the field, when it is asked.
      if (wanted) this.selectOrAdd(this.rulesetSelect, wanted);
    }
    await this.readPreset(this.rulesetSelect.value);
    this.fillRounds();
    const round = query.get("round");
    if (round) this.selectOrAdd(this.roundSelect, round);
    if (this.sheet) {
      this.playersSelect.value = String(this.sheet.players.length);
      this.playersSelect.disabled = true;
    } else if (query.get("players")) this.selectOrAdd(this.playersSelect, query.get("players"));
  }

  selectOrAdd(select, value) {
    if (!offers(select, value)) select.append(make("option", { value, text: value }));
    select.value = value;
  }

  /** The chosen ruleset's rounds and table sizes: the sheet's own, or the preset's. */
  chosen() {
    if (this.rulesetSelect.value === "sheet" && this.sheet) {
      const seats = this.sheet.players.length;
      return { rounds: this.sheet.rounds, players: { min: seats, max: seats } };
    }
    return this.presets.get(this.rulesetSelect.value) || { rounds: [], players: { min: 2, max: 8 } };
  }

  /** The rounds of the chosen ruleset, each with its contract and cards dealt. */
  rounds() {
    return this.chosen().rounds;
  }

  fillRounds() {
    const kept = this.roundSelect.value;
    this.roundSelect.replaceChildren(
      ...this.rounds().map((round) =>
        make("option", {
          value: String(round.number),
          text: say("round_choice", { number: round.number, contract: round.contract.text, cards: round.hand_size }),
        }),
      ),
    );
    if (offers(this.roundSelect, kept)) this.roundSelect.value = kept;
    const { min, max } = this.chosen().players;
    const players = this.playersSelect.value;
    const seats = [];
    for (let count = min; count <= max; count += 1) seats.push(make("option", { value: String(count), text: String(count) }));
    this.playersSelect.replaceChildren(make("option", { value: "", text: say("players_unsaid") }), ...seats);
    if (offers(this.playersSelect, players)) this.playersSelect.value = players;
  }

  /** The ruleset as a check's body names it: a preset's id, or the sheet's house ruleset. */
  ruleset() {
    if (this.rulesetSelect.value === "sheet" && this.sheet) {
      // A house ruleset is stored as its preset's id and the options it was made with.
      const own = this.sheet.ruleset;
      return Object.keys(own.options || {}).length ? { base: own.id, options: own.options } : own.id;
    }
    return this.rulesetSelect.value;
  }

  round() {
    return this.roundSelect.value ? Number(this.roundSelect.value) : null;
  }

  players() {
    return this.playersSelect.value ? Number(this.playersSelect.value) : null;
  }

  /** The player in a seat, numbered as the API numbers seats (its messages name them so):
   * "Ann (seat 0)" at a sheet's table, "Seat 0" at any other. */
  seatName(seat) {
    const name = this.sheet?.players[seat]?.name;
    return name ? say("seat_of", { name, seat }) : say("seat", { seat });
  }

  /** What the address says of the table. */
  address() {
    return this.sheet
      ? { sheet: this.sheet.id, round: this.round() }
      : { ruleset: this.rulesetSelect.value, round: this.round(), players: this.players() };
  }
}

// --- the cards tapped in ---------------------------------------------------------------------------

/**
 * The places cards are tapped into (a meld, the cards laid off, the rest of the hand), each a
 * box with its cards; the card grid adds to the chosen place, a card tapped in a box leaves it
 * (and that box becomes the chosen one). Once the referee has read a meld, its box shows the
 * cards as the referee laid them out, each wild card with what it stands for.
 */
export class Places {
  constructor(onChange) {
    this.onChange = onChange;
    this.root = $("places");
    this.places = [];
    this.chosen = null;
    $("card-grid").addEventListener("click", (event) => {
      const button = event.target.closest("[data-card]");
      if (button && this.chosen) this.add(this.chosen, button.dataset.card);
    });
    this.root.addEventListener("click", (event) => {
      const box = event.target.closest("[data-place]");
      if (!box) return;
      const place = this.places.find((each) => each.key === box.dataset.place);
      const remove = event.target.closest("[data-remove]");
      if (remove) return this.remove(place, remove.dataset.remove);
      if (event.target.closest("[data-drop]")) return this.drop(place);
      this.choose(place);
    });
  }

  /** Set the places: [{key, label, cards, single, droppable}], keeping the chosen one by key. */
  set(places) {
    const chosen = this.chosen?.key;
    this.places = places;
    this.chosen = places.find((place) => place.key === chosen) || places[0] || null;
    this.render();
  }

  get(key) {
    return this.places.find((place) => place.key === key);
  }

  choose(place, { focus = true } = {}) {
    this.chosen = place;
    this.render();
    if (focus) this.button(place).focus();
  }

  add(place, card) {
    if (place.single) place.cards = [card];
    else place.cards.push(card);
    this.render();
    this.onChange();
  }

  /** Take one copy of `card` off `place`; the focus stays in the box. */
  remove(place, card) {
    place.cards.splice(place.cards.lastIndexOf(card), 1);
    this.chosen = place;
    this.render();
    this.onChange();
    const box = this.box(place);
    (box.querySelector(`[data-remove="${card}"]`) || box.querySelector("[data-remove]") || this.button(place)).focus();
  }

  /** Drop a place (a meld); the focus goes to the place before it. */
  drop(place) {
    const at = this.places.indexOf(place);
    this.places = this.places.filter((each) => each !== place);
    if (this.chosen === place) this.chosen = this.places[Math.max(0, at - 1)] || null;
    this.render();
    this.onChange();
    const before = this.places[Math.max(0, at - 1)];
    if (before) this.button(before).focus();
  }

  box(place) {
    return this.root.querySelector(`[data-place="${place.key}"]`);
  }

  button(place) {
    return this.box(place).querySelector(".place-choose");
  }

  /** A card in a box: a button that takes it off. */
  chip(place, card, standsFor = null) {
    const chip = cardChip(card, standsFor);
    const label = chip.getAttribute("aria-label") || cardName(card);
    return make(
      "li",
      {},
      make(
        "button",
        { type: "button", class: chip.className, "data-remove": card, "aria-label": say("take_off", { card: label, place: place.label }) },
        ...chip.childNodes,
      ),
    );
  }

  render() {
    const grid = $("card-grid");
    grid.hidden = this.places.length === 0;
    const tapped = new Map();
    for (const place of this.places) for (const card of place.cards) tapped.set(card, (tapped.get(card) || 0) + 1);
    for (const button of grid.querySelectorAll("[data-card]")) {
      // How many of the card are tapped in already: a tap shows where the finger landed.
      const count = tapped.get(button.dataset.card) || 0;
      button.querySelector(".card-count").textContent = count ? String(count) : "";
      button.setAttribute("aria-label", say("grid_add", { card: button.dataset.name, place: this.chosen ? this.chosen.label : "" }));
    }
    if (this.chosen) grid.setAttribute("aria-label", say("grid_label", { place: this.chosen.label }));
    const droppable = this.places.filter((place) => place.droppable).length > 1;
    this.root.replaceChildren(
      ...this.places.map((place) => {
        const chosen = place === this.chosen;
        return make(
          "div",
          { class: `place${chosen ? " chosen" : ""}`, "data-place": place.key, "data-field": place.field },
          make(
            "div",
            { class: "place-head" },
            make("button", { type: "button", class: "place-choose", "aria-pressed": chosen ? "true" : "false", text: place.label }),
            make("span", { class: "meld-type", "data-reading-for": place.key }),
            place.droppable && droppable
              ? make("button", { type: "button", class: "icon-button", "data-drop": "", "aria-label": say("drop_place", { place: place.label }), text: "✕" })
              : null,
          ),
          place.cards.length
            ? make("ul", { class: "place-cards", "aria-label": place.label }, ...place.cards.map((card) => this.chip(place, card)))
            : make("p", { class: "hint place-cards", text: place.hint || say("place_empty") }),
          make("div", { class: "place-verdict", "data-verdict-for": place.key }),
          make("p", { class: "field-error", "data-error-for": place.field, hidden: true }),
        );
      }),
    );
  }

  /** The referee's reading of the meld in a box: its kind, its cards as laid out, the rules
   * it breaks. */
  showReading(key, meld, broken) {
    const place = this.get(key);
    if (!place) return;
    const box = this.box(place);
    box.querySelector("[data-reading-for]").textContent = meldTitle(meld);
    const readings = new Map(meld.wilds.map((wild) => [wild.index, wild.stands_for]));
    // A card with the focus keeps it (on its copy in the new row): a keyboard user goes on.
    const focused = box.contains(document.activeElement) ? document.activeElement.dataset.remove : undefined;
    box.querySelector(".place-cards").replaceWith(
      make(
        "ul",
        { class: "place-cards", "aria-label": place.label },
        ...meld.cards.map((card, index) => this.chip(place, card, readings.has(index) ? readings.get(index) : null)),
      ),
    );
    if (broken) box.querySelector("[data-verdict-for]").append(broken);
    if (focused) box.querySelector(`[data-remove="${focused}"]`)?.focus();
  }

  /** Forget the readings: the boxes show the cards as tapped until the next verdict. */
  clearReadings() {
    for (const slot of this.root.querySelectorAll("[data-verdict-for]")) slot.replaceChildren();
    for (const title of this.root.querySelectorAll("[data-reading-for]")) title.textContent = "";
  }
}

// --- sharing ----------------------------------------------------------------------------------

$("copy-link")?.addEventListener("click", () => copyField($("ruling-link"), $("copy-status")));

// --- asking ---------------------------------------------------------------------------------------

/** How long an answer may take before the page says it is working on it. */
const WORKING_AFTER_MS = 300;
/** Taps closer together than this are sent as one question. */
const SETTLE_MS = 120;

/**
 * Ask the API for the current state's verdict, the last question winning: a tap made while a
 * question is out sends a new one, and an older answer arriving late is dropped.
 */
export class Asker {
  constructor({ form, status, show }) {
    this.form = form;
    this.status = status;
    this.show = show;
    this.asked = 0;
    this.timer = null;
    this.controller = null;
  }

  /** Ask `path` with `body` soon (null: nothing to ask yet; `empty` is said instead). */
  soon(path, body, empty) {
    // From the tap on, any answer to an older question is stale: it is dropped, not shown.
    window.clearTimeout(this.timer);
    const number = ++this.asked;
    if (this.controller) this.controller.abort();
    this.busy(true);
    this.timer = window.setTimeout(() => this.ask(number, path, body, empty), SETTLE_MS);
  }

  /** Say, for assistive technology, that the verdict is about to change. */
  busy(asking) {
    for (const element of [this.status, $("verdict")]) {
      if (asking) element.setAttribute("aria-busy", "true");
      else element.removeAttribute("aria-busy");
    }
  }

  async ask(number, path, body, empty) {
    if (number !== this.asked) return;
    clearErrors(this.form);
    if (body === null) {
      this.status.textContent = empty;
      this.show(null);
      this.busy(false);
      return;
    }
    this.controller = new AbortController();
    const working = window.setTimeout(() => {
      if (number === this.asked) this.status.textContent = say("working");
    }, WORKING_AFTER_MS);
    try {
      const answer = await api("POST", path, { body, signal: this.controller.signal });
      if (number !== this.asked) return;
      this.show(answer.body);
    } catch (error) {
      if (number !== this.asked || error.name === "AbortError") return;
      this.show(null);
      // The field's own message ("not a card: 'ZZ'"), shown again beside the place it names.
      const first = error.problem?.errors?.[0]?.message;
      this.status.textContent = error.status ? say("not_asked", { detail: first || error.message }) : error.message;
      if (error.problem) showErrors(this.form, error.problem);
    } finally {
      window.clearTimeout(working);
      if (number === this.asked) this.busy(false);
    }
  }
}
