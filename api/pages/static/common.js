// What every page's script shares: their texts, the API's answers and errors,
// and what this device remembers about the sheets it opened.

const texts = JSON.parse(document.getElementById("texts").textContent);
// The language the page is written in: the API is asked for its messages in it too.
const language = document.documentElement.lang;

// The language switch keeps the rest of the address: a sheet's edit link lives in the fragment,
// a ruling in the query.
for (const link of document.querySelectorAll("a[data-lang]")) {
  link.addEventListener("click", () => {
    const query = new URLSearchParams(window.location.search);
    query.set("lang", link.dataset.lang);
    link.href = `?${query}${window.location.hash}`;
  });
}

/** The text under `key`, with each {name} replaced by values[name]. */
export function say(key, values = {}) {
  const text = texts[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/** An element with attributes and children (texts or elements), made without any HTML. */
export function make(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (name === "text") element.textContent = value;
    else element.setAttribute(name, value === true ? "" : value);
  }
  element.append(...children.filter((child) => child !== null && child !== undefined));
  return element;
}

const SVG = "http://www.w3.org/2000/svg";

/** An SVG element with attributes and children, as make() makes HTML ones. */
export function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}

/** A failed request: the API's problem document, or the network's failure (status 0). */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || say("network_error"));
    this.status = status;
    this.problem = problem;
  }
}

/** Ask the API; answers {status, etag, body}, and throws ApiError for every error status. */
export async function api(method, path, { body, headers = {}, signal } = {}) {
  const init = {
    method,
    headers: { Accept: "application/json", "Accept-Language": language, ...headers },
    cache: "no-store",
    signal,
  };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["Content-Type"] = "application/json";
  }
  let answer;
  try {
    answer = await fetch(path, init);
  } catch (error) {
    if (error.name === "AbortError") throw error; // a newer question replaced this one
    throw new ApiError(0, { detail: say("network_error") });
  }
  const etag = answer.headers.get("ETag");
  if (answer.status === 304 || answer.status === 204) return { status: answer.status, etag, body: null };
  let parsed = null;
  try {
    parsed = await answer.json();
  } catch (error) {
    parsed = null;
  }
  if (!answer.ok) {
    throw new ApiError(
      answer.status,
      parsed || { detail: say("unexpected", { status: answer.status, detail: "" }) },
    );
  }
  return { status: answer.status, etag, body: parsed };
}

// --- errors next to their fields ---------------------------------------------------------------

/** Clear every message and mark inside `root`. */
export function clearErrors(root) {
  for (const slot of root.querySelectorAll("[data-error-for]")) {
    slot.textContent = "";
    slot.hidden = true;
  }
  for (const field of root.querySelectorAll("[aria-invalid]")) field.removeAttribute("aria-invalid");
}

function longestPrefix(elements, attribute, field) {
  let best = null;
  let bestLength = -1;
  for (const element of elements) {
    const name = element.getAttribute(attribute);
    const matches = name === field || name === "" || field.startsWith(name + ".");
    if (matches && name.length > bestLength) {
      best = element;
      bestLength = name.length;
    }
  }
  return best;
}

/**
 * Show each of the API's errors[] next to the field it names: the message goes to the slot
 * whose data-error-for is the longest prefix of the field ("results.2.points" -> "results.2"),
 * and the control whose data-field is the longest prefix (or else the first control inside the
 * field) is marked invalid. Answers the
 * first control marked, to move the focus there.
 */
export function showErrors(root, problem) {
  clearErrors(root);
  const slots = [...root.querySelectorAll("[data-error-for]")];
  const controls = [...root.querySelectorAll("[data-field]")];
  const errors =
    problem.errors && problem.errors.length ? problem.errors : [{ field: "", message: problem.detail }];
  let first = null;
  for (const error of errors) {
    const field = error.field || "";
    const slot = longestPrefix(slots, "data-error-for", field);
    if (slot) {
      slot.textContent = slot.textContent ? `${slot.textContent} ${error.message}` : error.message;
      slot.hidden = false;
    }
    // The control the field names, or else the first inside it ("results.2" -> its points).
    const control = field
      ? longestPrefix(controls, "data-field", field) ||
        controls.find(
          (each) => each.getAttribute("data-field").startsWith(field + ".") && !each.closest(".is-out"),
        )
      : null;
    if (control && control.getAttribute("data-field") !== "") {
      control.setAttribute("aria-invalid", "true");
      first = first || control;
    }
  }
  return first || slots.find((slot) => !slot.hidden) || null;
}

// --- what this device remembers ------------------------------------------------------------------

const PREFIX = "rummy-referee.sheet.";

function read(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null");
  } catch (error) {
    return null;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch (error) {
    // A full or disabled storage only costs the list of earlier sheets, never a score.
  }
}

/** What this device keeps about one sheet: its edit token and a summary for the start page. */
export function remembered(id) {
  return read(PREFIX + id) || {};
}

export function remember(id, facts) {
  write(PREFIX + id, { ...remembered(id), ...facts, id });
}

/** Forget a sheet on this device: its summary and its edit token (the sheet itself stays). */
export function forget(id) {
  try {
    localStorage.removeItem(PREFIX + id);
  } catch (error) {
    // A disabled storage kept nothing to forget.
  }
}

/**
 * A summary of an API sheet for the start page's "my matches": enough to list it and to start
 * the next match of the same table (players in their seats, the ruleset with its house options,
 * who dealt round 1). Summaries written before some of these fields existed lack them, and
 * the start page reads them as they are (`ruleset` was the ruleset's name alone).
 */
export function summary(sheet) {
  const ruleset = sheet.ruleset || {};
  const first = (sheet.rounds || [])[0];
  return {
    title: sheet.title ?? null,
    ruleset: {
      id: ruleset.id,
      name: ruleset.name,
      base: ruleset.base ?? null,
      options: ruleset.options || {},
    },
    players: sheet.players.map((player) => player.name),
    firstDealer: first ? first.dealer : (sheet.first_dealer ?? 0),
    status: sheet.status,
    played: sheet.rounds.filter((round) => round.status === "played").length,
    rounds: sheet.rounds.length,
    created: sheet.created_at ?? null,
    seen: new Date().toISOString(),
  };
}

/** Every sheet this device opened, the most recently seen first. */
export function rememberedSheets() {
  const sheets = [];
  try {
    for (let index = 0; index < localStorage.length; index += 1) {
      const key = localStorage.key(index);
      if (key && key.startsWith(PREFIX)) {
        const facts = read(key);
        if (facts && facts.id) sheets.push(facts);
      }
    }
  } catch (error) {
    // A disabled storage remembers no sheet.
  }
  return sheets.sort((a, b) => String(b.seen || "").localeCompare(String(a.seen || "")));
}

const LAST_RULESET = "rummy-referee.last-ruleset";

/** The ruleset this device last started a match with, `{id, options}`, or null. */
export function lastRuleset() {
  const last = read(LAST_RULESET);
  return last && typeof last.id === "string" ? { id: last.id, options: last.options || {} } : null;
}

export function rememberRuleset(id, options = {}) {
  write(LAST_RULESET, { id, options });
}

/** A ruleset as POST /v1/matches takes it: a preset's id, or `{base, options}` with house options. */
export function rulesetRequest(id, options = {}) {
  return Object.keys(options).length ? { base: id, options } : id;
}

/** Who deals round 1 of the next match of a table: the seat after the one who dealt it last time. */
export function nextDealer(firstDealer, players) {
  return players > 0 ? (Number(firstDealer || 0) + 1) % players : 0;
}

/**
 * The body of `POST /v1/matches` for a rematch of a sheet: the same players in the same seats,
 * the same ruleset (the preset's id, or `{base, options}` for a house ruleset), the same title,
 * and the next first dealer (the seat after the one who dealt round 1).
 *
 * @param {object} sheet a sheet as the API answers it (`GET /v1/matches/{id}`).
 * @returns {{ruleset: (string|{base: string, options: object}), players: string[],
 *   first_dealer: number, title?: string}} the body to send, with a new Idempotency-Key.
 */
export function rematchBody(sheet) {
  const players = sheet.players.map((player) => player.name);
  const first = (sheet.rounds || [])[0];
  const body = {
    ruleset: rulesetRequest(sheet.ruleset.id, sheet.ruleset.options || {}),
    players,
    first_dealer: nextDealer(first ? first.dealer : sheet.first_dealer, players.length),
  };
  if (sheet.title) body.title = sheet.title;
  return body;
}

/** A random key for Idempotency-Key: a random UUID (version 4, 122 random bits), the shape the
 * API asks for. crypto.randomUUID needs a secure context, which a home network's http://
 * address is not, and getRandomValues does not. */
export function randomKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40; // version 4
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // the RFC 4122 variant
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// --- words the pages share ------------------------------------------------------------------------

const SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** A card as the picker shows it: "AS" -> "A♠", "10H" -> "10♥", "JK" -> "Joker". */
export function cardText(card) {
  if (card === "JK") return say("joker");
  const suit = card.slice(-1);
  return `${card.slice(0, -1)}${SUIT_SYMBOLS[suit] ?? suit}`;
}

/** A place in the standings as the reader's language writes it: 1st, 2nd (de: 1., nl: 1e). */
export function ordinal(n) {
  const form = new Intl.PluralRules(language, { type: "ordinal" }).select(n);
  return say(ORDINALS[form] ?? "ordinal_other", { n });
}

/** Ordinal forms (Intl.PluralRules) and their texts; a language with fewer forms writes them
 * all alike in its catalog ("{n}." in German). */
const ORDINALS = { one: "ordinal_one", two: "ordinal_two", few: "ordinal_few", other: "ordinal_other" };

/** What a card costs left in hand, by the sheet's own ruleset ("10H" -> points["10"]). */
export function cardPoints(points, card) {
  return card === "JK" ? points.JK : points[card.slice(0, -1)];
}

/** Names joined as the reader's language joins them: "Ann, Bob and Cleo". */
export function listNames(names) {
  return new Intl.ListFormat(language, { style: "long", type: "conjunction" }).format(names);
}

/** How long ago `when` was, in the reader's words ("2 minutes ago", "vor 2 Minuten"). */
export function agoText(when, now = Date.now()) {
  const minutes = Math.round((now - when) / 60000);
  const format = new Intl.RelativeTimeFormat(language, { numeric: "auto" });
  if (minutes < 60) return format.format(-minutes, "minute");
  const hours = Math.round(minutes / 60);
  if (hours < 48) return format.format(-hours, "hour");
  return format.format(-Math.round(hours / 24), "day");
}

/** A date (RFC 3339) as the reader's language writes it. */
export function dateText(when) {
  return new Intl.DateTimeFormat(language, { dateStyle: "long" }).format(new Date(when));
}

/**
 * Copy the link in `field`, however the browser allows it: a home network's http:// page has no
 * clipboard API, and a phone rarely offers to copy a read-only field. `status` says what happened.
 */
export async function copyField(field, status) {
  field.focus();
  field.setSelectionRange(0, field.value.length);
  try {
    await navigator.clipboard.writeText(field.value);
    status.textContent = say("link_copied");
  } catch (error) {
    const copied = document.execCommand && document.execCommand("copy");
    status.textContent = say(copied ? "link_copied" : "link_selected");
  }
}

// --- what this device keeps besides its list of sheets -------------------------------------------

const KEPT = "rummy-referee.";

/** What this device keeps under `name` (a draft, an outbox, the last copy of a sheet), or null. */
export function kept(name) {
  return read(KEPT + name);
}

/** Keep `value` under `name`; null forgets it. */
export function keep(name, value) {
  if (value === null) {
    try {
      localStorage.removeItem(KEPT + name);
    } catch (error) {
      // Nothing was kept, then.
    }
  } else write(KEPT + name, value);
}
