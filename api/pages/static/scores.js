// What the sheet says, shown: each player's total and place, the end of the match, the briefing
// before each deal, and the scores round by round with each round's details a tap away.
// Functions of the sheet alone (as the API answers it); each player keeps one colour throughout
// (player-N, from their seat), on the board, the score table, the entry and the chart.

import { cardText, dateText, listNames, make, ordinal, say } from "./common.js";

const $ = (id) => document.getElementById(id);

const nameOf = (sheet, seat) => sheet.players[seat].name;

/** The class that gives a seat its colour. */
export const colour = (seat) => `player-${seat % 8}`;

/** Decks and jokers for the sheet's table size. */
export function tableFor(sheet) {
  const players = sheet.players.length;
  const sizes = sheet.ruleset.tables;
  return sizes.find((size) => players <= size.max_players) || sizes.at(-1);
}

/** The round to deal next, or null once every round is played. */
export function nextRound(sheet) {
  return sheet.rounds.find((round) => round.status === "pending") || null;
}

/** Each seat's total and place ("2nd"), as the sheet's standings rank them. */
export function standingOf(sheet, seat) {
  const standing = sheet.standings.find((each) => each.seat === seat);
  return { total: standing.total, place: ordinal(standing.rank), rank: standing.rank };
}

/** The sheet's heading and the line below it: the evening's title, the ruleset, the date. */
export function showHeading(sheet) {
  const named = sheet.ruleset.name; // in the page's language: the API is asked in it
  const heading = sheet.title || named;
  $("sheet-title").textContent = heading;
  $("sheet-subtitle").textContent = [sheet.title ? named : null, dateText(sheet.created_at)]
    .filter(Boolean)
    .join(" · ");
  document.title = `${heading}: ${sheet.players.map((player) => player.name).join(", ")}`;
}

/** Every player's total and place, in seat order, each in their colour: what a phone at the
 * table looks at most, so it comes first and fits a phone's width for up to eight players. */
export function showBoard(sheet) {
  $("board").hidden = false;
  // Four tiles a row at most: two rows for a table of eight, one for four.
  const count = sheet.players.length;
  $("board-list").style.setProperty("--columns", String(count <= 4 ? count : Math.ceil(count / 2)));
  const winners = new Set(sheet.winners || []);
  $("board-list").replaceChildren(
    ...sheet.players.map((player) => {
      const { total, place } = standingOf(sheet, player.seat);
      return make(
        "li",
        { class: `tile ${colour(player.seat)}${winners.has(player.seat) ? " winner" : ""}` },
        make("span", { class: "tile-name", text: player.name }),
        make("span", { class: "tile-total", text: String(total) }),
        make("span", { class: "tile-place", text: place }),
      );
    }),
  );
}

/** The end of the match: the winner, big; the final ranking; the tie-break, if one was needed. */
export function showEnding(sheet) {
  const finished = sheet.status === "finished";
  $("ending").hidden = !finished;
  if (!finished) return;
  const winners = sheet.winners || [];
  const names = listNames(winners.map((seat) => nameOf(sheet, seat)));
  const total = winners.length ? sheet.totals.find((item) => item.seat === winners[0]).total : 0;
  $("ending-title").textContent = say(winners.length > 1 ? "winners_big" : "winner_big", { names });
  $("result-line").textContent = winners.length
    ? say(winners.length > 1 ? "won_with_each" : "won_with", { total })
    : "";
  const tie = sheet.tie_break;
  let tieText = "";
  if (tie) {
    if (tie.method === "last_round" && tie.decided) tieText = say("tie_last_round");
    else if (tie.method === "replay") tieText = say("tie_replay", { round: tie.round });
    else tieText = say("tie_shared");
  }
  $("tie-line").textContent = tieText;
  $("ranking").replaceChildren(
    ...sheet.standings.map((standing) =>
      make(
        "li",
        { class: `${colour(standing.seat)}${standing.rank === 1 ? " first" : ""}` },
        make("span", { class: "rank", text: ordinal(standing.rank) }),
        make("span", { class: "ranking-name", text: standing.name }),
        make("span", { class: "ranking-total", text: String(standing.total) }),
      ),
    ),
  );
}

/** Before each deal: the round and its contract, who deals, cuts and plays first (in large
 * type: it is read across the table), the cards, the decks and what is special this round. */
export function showBriefing(sheet) {
  const round = nextRound(sheet);
  $("briefing").hidden = !round;
  if (!round) return;
  const table = tableFor(sheet);
  $("briefing-title").textContent = say("briefing_title", {
    number: round.number,
    count: sheet.rounds.length,
    contract: round.contract.text,
  });
  const roles = [
    ["role_deals", round.dealer],
    ["role_cuts", round.cutter],
    ["role_starts", round.first_player],
  ];
  $("roles").replaceChildren(
    ...roles.map(([role, seat]) =>
      make(
        "div",
        { class: `role ${colour(seat)}` },
        make("dt", { text: say(role) }),
        make("dd", { text: nameOf(sheet, seat) }),
      ),
    ),
  );
  const lines = [
    say("deal", { cards: round.hand_size }),
    table.jokers
      ? say("table", { decks: table.decks, jokers: table.jokers })
      : say("table_no_jokers", { decks: table.decks }),
  ];
  if (round.whole_hand) lines.push(say("whole_hand"));
  else if (!round.discard_to_go_out) lines.push(say("no_discard"));
  if (round.exact_minimum) lines.push(say("exact_minimum"));
  $("briefing-lines").replaceChildren(...lines.map((line) => make("li", { text: line })));
}

// --- the scores, round by round -------------------------------------------------------------

/** The rounds whose details are open: they stay open when the sheet is shown again. */
const open = new Set();

/**
 * Every round's points with each player's running total below, a column per player that
 * fits a phone's width; a tap on a round opens its details. With `editable`, the details
 * offer to correct the round. `queued` holds the numbers of rounds waiting to be sent.
 */
export function showScores(sheet, { editable = false, queued = [] } = {}) {
  $("scores").hidden = false;
  const table = $("score-table");
  const players = sheet.players;
  const winners = new Set(sheet.winners || []);
  table.style.setProperty("--players", String(players.length));
  table.classList.toggle("many-players", players.length > 5);

  table.tHead.replaceChildren(
    make(
      "tr",
      {},
      make(
        "th",
        { scope: "col", class: "round" },
        make("span", { "aria-hidden": "true", text: "#" }),
        make("span", { class: "visually-hidden", text: say("chart_round") }),
      ),
      make("th", { scope: "col", class: "contract print-only", text: say("contract") }),
      ...players.map((player) =>
        make(
          "th",
          { scope: "col", class: `player ${colour(player.seat)}` },
          make("span", { class: "player-name", text: player.name }),
        ),
      ),
    ),
  );

  const rows = [];
  for (const round of sheet.rounds) {
    const waiting = queued.includes(round.number);
    const row = make(
      "tr",
      { class: `round-row ${waiting ? "queued" : round.status}`, "data-round": round.number },
      make(
        "th",
        { scope: "row", class: "round" },
        round.status === "played"
          ? make("button", {
              type: "button",
              class: "round-toggle",
              "aria-expanded": String(open.has(round.number)),
              "aria-controls": `detail-${round.number}`,
              "aria-label": say("round_details", { number: round.number }),
              text: String(round.number),
            })
          : String(round.number),
      ),
      make("td", { class: "contract print-only", text: round.contract.text }),
    );
    if (round.status === "played") {
      for (const player of players) {
        const result = round.results.find((item) => item.seat === player.seat);
        row.append(
          make(
            "td",
            { class: `score ${colour(player.seat)}${result.went_out ? " out" : ""}` },
            make("span", { class: "points", text: result.went_out ? say("out") : String(result.points) }),
            make("span", { class: "running", text: String(result.total) }),
          ),
        );
      }
    } else {
      row.append(
        make(
          "td",
          { colspan: players.length, class: "to-play" },
          make("span", {
            class: "screen-only",
            text: waiting ? say("queued_mark") : round.contract.text,
          }),
        ),
      );
    }
    rows.push(row);
    if (round.status === "played") rows.push(detailRow(sheet, round, editable));
  }
  table.tBodies[0].replaceChildren(...rows);

  table.tFoot.replaceChildren(
    make(
      "tr",
      {},
      make("th", { scope: "row", class: "round", text: say("total") }),
      make("td", { class: "contract print-only" }),
      ...sheet.totals.map((total) =>
        make("td", {
          class: `total ${colour(total.seat)}${winners.has(total.seat) ? " winner" : ""}`,
          text: String(total.total),
        }),
      ),
    ),
  );
}

/** A round's details, under its row: who dealt, the contract, and each player's result — went
 * out, points, the cards counted as the picker shows them, buys, the cut bonus, the total. */
function detailRow(sheet, round, editable) {
  const items = sheet.players.map((player) => {
    const result = round.results.find((item) => item.seat === player.seat);
    const facts = [];
    if (result.went_out) facts.push(say("detail_out", { name: player.name }));
    else {
      let points = say("detail_points", { points: result.penalty });
      if (result.cards) points += ` (${result.cards.map(cardText).join(" ")})`;
      facts.push(`${player.name}: ${points}`);
    }
    if (result.buys) {
      facts.push(
        result.buys === 1 ? say("value_buys_one") : say("value_buys", { count: result.buys }),
      );
    }
    if (result.bonus) facts.push(say("value_bonus", { bonus: result.bonus }));
    facts.push(say("detail_total", { total: result.total }));
    return make("li", { class: colour(player.seat) }, facts.join(" · "));
  });
  const box = make(
    "div",
    { class: "detail-box" },
    make("p", {
      text: say("detail_dealt", {
        dealer: nameOf(sheet, round.dealer),
        cards: round.hand_size,
        contract: round.contract.text,
      }),
    }),
    round.stock_ran_out ? make("p", { text: say("detail_stock") }) : null,
    make("ul", { class: "detail-results" }, ...items),
  );
  if (editable) {
    box.append(
      make("button", {
        type: "button",
        class: "secondary",
        "data-correct": round.number,
        text: say("correct_label", { number: round.number }),
      }),
    );
  }
  return make(
    "tr",
    { class: "detail", id: `detail-${round.number}`, hidden: !open.has(round.number) },
    // The contract's column is there only in print, where the details are not.
    make("td", { colspan: sheet.players.length + 1 }, box),
  );
}

/** Open or close a round's details (a tap on its row). */
export function toggleRound(number) {
  const row = $(`detail-${number}`);
  if (!row) return;
  const opening = row.hidden;
  if (opening) open.add(number);
  else open.delete(number);
  row.hidden = !opening;
  document
    .querySelector(`.round-row[data-round="${number}"] .round-toggle`)
    ?.setAttribute("aria-expanded", String(opening));
}
