// The hand page: a hand tapped in, sent to the API's hand analysis as it changes. Can it lay the
// round's contract, and how best; if not, every card that would let it, and the nearest it comes.
// The hand and the round live in the address (docs/pages.md, "Addresses").

import { make, say } from "./common.js";
import { Asker, Places, Table, cardLabel, cardRow, joinCards, meldReading, parseCards, query, writeAddress } from "./referee.js";

const $ = (id) => document.getElementById(id);
const form = $("referee");
const table = new Table(changed);
const places = new Places(changed);
const asker = new Asker({ form, status: $("verdict-line"), show });

function body() {
  const hand = places.get("hand").cards;
  if (!hand.length) return null;
  const asked = { ruleset: table.ruleset(), round: table.round(), hand };
  if (table.players() !== null) asked.players = table.players();
  if (query.get("jokers")) asked.jokers = Number(query.get("jokers"));
  return asked;
}

function changed() {
  writeAddress({ ...table.address(), hand: joinCards(places.get("hand").cards), jokers: query.get("jokers") });
  asker.soon("/v1/hands/analysis", body(), say("empty_hand"));
}

/** A partial meld of the nearest arrangement: its cards, and what it still lacks. */
function partialMeld(meld) {
  const kind = meld.type === "set" ? "partial_set" : "partial_run";
  const title = say(kind);
  const lacking = meld.missing.length
    ? make("span", { class: "missing", text: say("lacks", { cards: meld.missing.map(cardLabel).join(", ") }) })
    : make("span", { class: "missing", text: say("complete") });
  return make("li", {}, make("span", { class: "meld-type", text: title }), " ", cardRow(meld.cards), " ", lacking);
}

function show(analysis) {
  const details = $("verdict-details");
  details.replaceChildren();
  form.dataset.valid = analysis ? String(analysis.can_lay) : "";
  if (!analysis) return;
  const line = $("verdict-line");
  if (analysis.can_lay) {
    line.textContent = say("can_lay", { contract: analysis.contract.text });
    details.append(
      make("h3", { text: say("best_arrangement") }),
      make("ul", { class: "arrangement" }, ...analysis.melds.map((meld) => make("li", {}, meldReading(meld)))),
      make("p", { class: "remaining" }, make("span", { text: say("remaining") }), " ", analysis.remaining.length ? cardRow(analysis.remaining) : say("no_cards")),
      make("p", { text: say("penalty_left", { points: analysis.penalty }) }),
      make("p", { class: "goes-out", text: say(analysis.goes_out ? "goes_out" : "does_not_go_out") }),
    );
    return;
  }
  line.textContent = say("cannot_lay", { contract: analysis.contract.text });
  details.append(
    ...(analysis.needs.length
      ? [make("h3", { text: say("needs_title") }), make("p", { class: "needs" }, cardRow(analysis.needs))]
      : [make("p", { class: "needs-none", text: say("needs_none") })]),
  );
  if (analysis.closest)
    details.append(make("p", { class: "cards-short", text: say("cards_short", { count: analysis.closest.missing }) }));
  if (analysis.closest) {
    details.append(
      make("h3", { text: say("closest_title") }),
      make("ul", { class: "arrangement" }, ...analysis.closest.melds.map(partialMeld)),
      make("p", { class: "remaining" }, make("span", { text: say("remaining") }), " ", analysis.closest.remaining.length ? cardRow(analysis.closest.remaining) : say("no_cards")),
    );
  }
}

form.addEventListener("submit", (event) => event.preventDefault());
await table.load();
places.set([{ key: "hand", field: "hand", label: say("the_hand"), cards: parseCards(query.get("hand")) }]);
changed();
