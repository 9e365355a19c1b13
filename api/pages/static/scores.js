// What the sheet says, shown: the briefing before each deal, the score table with the winner
// and the tie-break, and the standings. Functions of the sheet alone (as the API answers it).

import { runningTotals } from "./chart.js";
import { make, say } from "./common.js";

const $ = (id) => document.getElementById(id);

const nameOf = (sheet, seat) => sheet.players[seat].name;

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

/** Before each deal: the round, its contract, the cards, the decks, who deals, cuts, starts. */
export function showBriefing(sheet) {
  const round = nextRound(sheet);
  $("briefing").hidden = false;
  const lines = [];
  if (round) {
    const table = tableFor(sheet);
    $("briefing-title").textContent = say("briefing_title", {
      number: round.number,
      count: sheet.rounds.length,
      contract: round.contract.text,
    });
    lines.push(say("deal", { cards: round.hand_size }));
    lines.push(
      table.jokers
        ? say("table", { decks: table.decks, jokers: table.jokers })
        : say("table_no_jokers", { decks: table.decks }),
    );
    lines.push(
      say("seating", {
        dealer: nameOf(sheet, round.dealer),
        cutter: nameOf(sheet, round.cutter),
        first: nameOf(sheet, round.first_player),
      }),
    );
    if (round.whole_hand) lines.push(say("whole_hand"));
    else if (!round.discard_to_go_out) lines.push(say("no_discard"));
    if (round.exact_minimum) lines.push(say("exact_minimum"));
  } else {
    $("briefing-title").textContent = say("all_played");
  }
  $("briefing-lines").replaceChildren(...lines.map((line) => make("li", { text: line })));
}

/** Every round's points and running totals, a column pair per player; with `editable`, a
 * button to correct each played round. */
export function showScores(sheet, editable) {
  $("scores").hidden = false;
  const players = sheet.players;
  const winners = new Set(sheet.winners || []);
  const head = make(
    "tr",
    {},
    make("th", { scope: "col", rowspan: 2, class: "round", text: say("chart_round") }),
    make("th", { scope: "col", rowspan: 2, class: "contract", text: say("contract") }),
  );
  const sub = make("tr");
  for (const player of players) {
    head.append(
      make("th", {
        scope: "colgroup",
        colspan: 2,
        class: winners.has(player.seat) ? "winner" : null,
        text: player.name,
      }),
    );
    sub.append(
      make(
        "th",
        { scope: "col" },
        make("span", { class: "word-long", text: say("points") }),
        make("span", { class: "word-short", "aria-hidden": "true", text: say("points_short") }),
      ),
      make("th", { scope: "col", class: "total", text: say("total") }),
    );
  }
  if (editable) head.append(make("th", { scope: "col", rowspan: 2, class: "actions", text: say("actions") }));
  $("score-table").tHead.replaceChildren(head, sub);
  // Six players or more print smaller, so that every column fits across the page.
  $("score-table").classList.toggle("many-players", players.length > 5);

  const running = runningTotals(sheet);
  const body = sheet.rounds.map((round, index) => {
    const row = make(
      "tr",
      { class: round.status },
      make("th", { scope: "row", text: String(round.number) }),
      make("td", { class: "contract", text: round.contract.text }),
    );
    for (const player of players) {
      const result = round.results?.find((item) => item.seat === player.seat);
      row.append(
        make("td", {
          class: result?.went_out ? "out" : null,
          text: result ? (result.went_out ? say("out") : String(result.points)) : "",
        }),
        make("td", { class: "total", text: result ? String(running[player.seat][index + 1]) : "" }),
      );
    }
    if (editable) {
      row.append(
        make(
          "td",
          { class: "actions" },
          round.status === "played"
            ? make("button", {
                type: "button",
                class: "secondary",
                "data-correct": round.number,
                "aria-label": say("correct_label", { number: round.number }),
                text: say("correct"),
              })
            : "",
        ),
      );
    }
    return row;
  });
  $("score-table").tBodies[0].replaceChildren(...body);

  const foot = make("tr", {}, make("th", { scope: "row", colspan: 2, text: say("total") }));
  for (const total of sheet.totals) {
    foot.append(
      make("td", {
        colspan: 2,
        class: winners.has(total.seat) ? "total winner" : "total",
        text: String(total.total),
      }),
    );
  }
  if (editable) foot.append(make("td", { class: "actions" }));
  $("score-table").tFoot.replaceChildren(foot);
  showResult(sheet);
}

function showResult(sheet) {
  const winners = sheet.winners || [];
  let line = "";
  if (sheet.status === "finished" && winners.length) {
    const names = winners.map((seat) => nameOf(sheet, seat)).join(", ");
    const total = sheet.totals.find((item) => item.seat === winners[0]).total;
    line = say(winners.length > 1 ? "winners_shared" : "winner", { names, total });
  }
  $("result-line").textContent = line;
  const tie = sheet.tie_break;
  let tieText = "";
  if (tie) {
    if (tie.method === "last_round" && tie.decided) tieText = say("tie_last_round");
    else if (tie.method === "replay") tieText = say("tie_replay", { round: tie.round });
    else tieText = say("tie_shared");
  }
  $("tie-line").textContent = tieText;
}

export function showStandings(sheet) {
  $("standings").hidden = false;
  $("standings-list").replaceChildren(
    ...sheet.standings.map((standing) =>
      make(
        "li",
        {},
        make("span", { class: "rank", text: say("standings_rank", { rank: standing.rank }) }),
        `${standing.name}: ${standing.total}`,
      ),
    ),
  );
}
