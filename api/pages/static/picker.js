// The card picker: count a player's points from the cards left in hand. Each card of the grid
// adds one copy (as many as the table's decks hold; jokers as many as it has), each card in the
// list below takes one off, and the points add up as the cards are tapped.

import { cardPoints, make, say } from "./common.js";

const dialog = document.getElementById("picker");
const grid = dialog.querySelector(".picker-grid");
const hand = document.getElementById("picker-hand");
const total = document.getElementById("picker-total");
const buttons = new Map(
  [...grid.querySelectorAll("[data-card]")].map((button) => [button.dataset.card, button]),
);

let cards = [];
let limits = { decks: 2, jokers: 4 };
let values = {};

function counts() {
  const counted = new Map();
  for (const card of cards) counted.set(card, (counted.get(card) || 0) + 1);
  return counted;
}

function show() {
  const counted = counts();
  for (const [card, button] of buttons) {
    const count = counted.get(card) || 0;
    const most = card === "JK" ? limits.jokers : limits.decks;
    button.querySelector(".card-count").textContent = count ? String(count) : "";
    button.disabled = count >= most;
    const name = button.dataset.name;
    button.setAttribute(
      "aria-label",
      count ? `${say("picker_add", { card: name })} (${count})` : say("picker_add", { card: name }),
    );
  }
  hand.replaceChildren(
    ...[...counted].map(([card, count]) => {
      const name = buttons.get(card).dataset.name;
      return make(
        "li",
        {},
        make("button", {
          type: "button",
          "data-remove": card,
          "aria-label": say("picker_remove", { card: name }),
          text:
            count > 1
              ? `${buttons.get(card).firstChild.textContent} ×${count}`
              : buttons.get(card).firstChild.textContent,
        }),
      );
    }),
  );
  const points = cards.reduce((sum, card) => sum + cardPoints(values, card), 0);
  total.textContent = cards.length
    ? say(cards.length === 1 ? "picker_total_one" : "picker_total", { count: cards.length, points })
    : say("picker_empty");
}

grid.addEventListener("click", (event) => {
  const button = event.target.closest("[data-card]");
  if (!button || button.disabled) return;
  cards.push(button.dataset.card);
  show();
});

hand.addEventListener("click", (event) => {
  const button = event.target.closest("[data-remove]");
  if (!button) return;
  const card = button.dataset.remove;
  cards.splice(cards.lastIndexOf(card), 1);
  show();
  // The focus stays in the list (or returns to the grid when the list is empty).
  const same = hand.querySelector(`[data-remove="${card}"]`);
  (same || hand.querySelector("button") || buttons.get(card)).focus();
});

/**
 * Open the picker for one player; answers the cards chosen (["7H", "JK"]), or null when
 * cancelled.
 */
export function pickCards({ name, start = [], points, table }) {
  cards = [...start];
  values = points;
  limits = table;
  document.getElementById("picker-title").textContent = say("picker_title", { name });
  show();
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "use" ? [...cards] : null), {
      once: true,
    });
  });
}
