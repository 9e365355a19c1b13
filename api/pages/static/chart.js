// A line chart of each player's running total over the rounds, drawn as SVG by the page
// itself (no chart library). Lines differ by colour and by dash, so they can be told apart in
// print and without colour vision; the score table above holds the same numbers as text.

import { make, say, svg } from "./common.js";

// Drawn at the width it is shown (within bounds), so that its text stays legible on a phone.
const LEAST_WIDTH = 300;
const MOST_WIDTH = 720;
const MARGIN = { top: 16, right: 20, bottom: 40, left: 52 };

/** A round number for the grid: 1, 2, 5 or 10 times a power of ten, about five per axis. */
function step(highest) {
  const rough = Math.max(highest, 1) / 5;
  const power = 10 ** Math.floor(Math.log10(rough));
  return [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough);
}

/** Each player's running totals, starting from 0 before round 1 (a seat's list, by seat). */
export function runningTotals(sheet) {
  const played = sheet.rounds.filter((round) => round.status === "played");
  return sheet.players.map((player) => {
    let total = 0;
    return [
      0,
      ...played.map((round) => {
        total += round.results.find((result) => result.seat === player.seat).points;
        return total;
      }),
    ];
  });
}

export function drawChart(container, sheet) {
  const width = Math.round(Math.min(MOST_WIDTH, Math.max(LEAST_WIDTH, container.clientWidth || MOST_WIDTH)));
  const height = Math.round(width / 2);
  const series = runningTotals(sheet);
  const rounds = series[0].length - 1;
  const lowest = Math.min(0, ...series.flat());
  const highest = Math.max(1, ...series.flat());
  const spacing = step(highest - lowest);
  const top = Math.ceil(highest / spacing) * spacing;
  const bottom = Math.floor(lowest / spacing) * spacing;
  const innerWidth = width - MARGIN.left - MARGIN.right;
  const innerHeight = height - MARGIN.top - MARGIN.bottom;
  const x = (round) => MARGIN.left + (rounds ? (round / rounds) * innerWidth : 0);
  const y = (points) => MARGIN.top + innerHeight - ((points - bottom) / (top - bottom)) * innerHeight;

  const chart = svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    role: "img",
    "aria-labelledby": "chart-svg-title",
  });
  chart.append(svg("title", { id: "chart-svg-title" }, say("chart_label")));
  for (let points = bottom; points <= top; points += spacing) {
    chart.append(
      svg("line", { class: "grid", x1: MARGIN.left, x2: width - MARGIN.right, y1: y(points), y2: y(points) }),
      svg("text", { x: MARGIN.left - 6, y: y(points) + 4, "text-anchor": "end" }, String(points)),
    );
  }
  for (let round = 0; round <= rounds; round += 1) {
    chart.append(
      svg("text", { x: x(round), y: height - MARGIN.bottom + 16, "text-anchor": "middle" }, String(round)),
    );
  }
  chart.append(
    svg("line", {
      class: "axis",
      x1: MARGIN.left,
      x2: MARGIN.left,
      y1: MARGIN.top,
      y2: height - MARGIN.bottom,
    }),
    svg("line", { class: "axis", x1: MARGIN.left, x2: width - MARGIN.right, y1: y(bottom), y2: y(bottom) }),
    svg(
      "text",
      { x: MARGIN.left + innerWidth / 2, y: height - 6, "text-anchor": "middle" },
      say("chart_round"),
    ),
  );
  series.forEach((totals, seat) => {
    const look = `series-${seat % 8} dash-${seat % 4}`;
    const points = totals.map((total, round) => `${x(round).toFixed(1)},${y(total).toFixed(1)}`).join(" ");
    chart.append(svg("polyline", { class: `line ${look}`, points }));
    totals.forEach((total, round) => {
      chart.append(svg("circle", { class: look, cx: x(round), cy: y(total), r: 3 }));
    });
  });

  const legend = make("ul", { class: "chart-legend" });
  sheet.players.forEach((player, seat) => {
    const look = `series-${seat % 8} dash-${seat % 4}`;
    const sample = svg(
      "svg",
      { viewBox: "0 0 32 12", "aria-hidden": "true" },
      svg("line", { class: `line ${look}`, x1: 0, x2: 32, y1: 6, y2: 6 }),
    );
    const last = series[seat].at(-1);
    legend.append(make("li", {}, sample, `${player.name}: ${last}`));
  });
  container.replaceChildren(chart, legend);
}
