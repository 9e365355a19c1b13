// Sharing a sheet with the other phones at the table: its view link (anyone can follow the
// scores) and, for a scorekeeper's phone, its edit link, each with a copy button, the phone's
// own share sheet where it has one, and a QR code drawn here in the page (lean-qr): the edit
// link holds the edit token, which must reach no server.
//
// A laptop that opened the page as http://127.0.0.1 would hand out links that lead every other
// phone to itself; the page asks the service for this machine's address on the table's network
// and uses that instead, saying why (or, when the service answers only this machine, how to
// let the table in).

import { copyField, keep, kept, make, say, svg } from "./common.js";
import { correction, generate } from "./lean-qr.js";

const $ = (id) => document.getElementById(id);
/** The quiet zone around a QR code, in modules: what a phone's camera needs to find it. */
const QUIET = 4;
const LOOPBACK = /^(localhost|.*\.localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** The origin the links use: this page's, or the machine's network address chosen for it. */
let origin = window.location.origin;
let shown = { title: "", view: "", edit: "" };

/** A QR code of `text` as SVG: one path of dark modules, sized by CSS (medium error correction
 * survives a phone screen's glare and a crease in a printed sheet). */
function qrCode(text, label) {
  const code = generate(text, { minCorrectionLevel: correction.M });
  const size = code.size + 2 * QUIET;
  let path = "";
  for (let y = 0; y < code.size; y += 1) {
    for (let x = 0; x < code.size; x += 1) {
      if (code.get(x, y)) path += `M${x + QUIET} ${y + QUIET}h1v1h-1z`;
    }
  }
  return svg(
    "svg",
    { viewBox: `0 0 ${size} ${size}`, role: "img", "aria-label": label, "shape-rendering": "crispEdges" },
    svg("rect", { width: size, height: size, class: "qr-paper" }),
    svg("path", { d: path, class: "qr-ink" }),
  );
}

/** Show the sheet's links (and the view link's QR code) for `sheet`; `token` makes the edit
 * link, whose code is drawn only when asked for. */
export function showSharing(sheet, token) {
  const path = window.location.pathname;
  const view = `${origin}${path}`;
  const edit = token ? `${view}#edit=${encodeURIComponent(token)}` : "";
  const title = sheet.title || sheet.ruleset.name;
  if (view !== shown.view) $("view-qr").replaceChildren(qrCode(view, say("view_qr_label")));
  if (edit !== shown.edit && !$("edit-qr").hidden) drawEditQr(edit);
  shown = { title, view, edit };
  $("view-link").value = view;
  $("edit-share").hidden = !token;
  $("edit-link").value = edit;
}

function drawEditQr(edit) {
  $("edit-qr").replaceChildren(qrCode(edit, say("edit_qr_label")));
}

$("show-edit-qr").addEventListener("click", (event) => {
  const showing = $("edit-qr").hidden;
  if (showing) drawEditQr(shown.edit);
  $("edit-qr").hidden = !showing;
  event.currentTarget.setAttribute("aria-expanded", String(showing));
});

for (const button of document.querySelectorAll("[data-copy]")) {
  const field = $(button.dataset.copy);
  button.addEventListener("click", () => copyField(field, $(`${field.id}-status`)));
}
for (const id of ["view-link", "edit-link"]) $(id).addEventListener("focus", (event) => event.target.select());

// The phone's own share sheet (a message, a chat), where the browser has one: only on https.
if (typeof navigator.share === "function") {
  for (const button of document.querySelectorAll("[data-share]")) {
    button.hidden = false;
    button.addEventListener("click", async () => {
      const editing = button.dataset.share === "edit-link";
      const text = say(editing ? "share_edit" : "share_view", { title: shown.title });
      try {
        await navigator.share({ title: shown.title, text, url: $(button.dataset.share).value });
      } catch (error) {
        // Dismissed, or refused: the copy button is beside it.
      }
    });
  }
}

/**
 * On a page opened at this machine's own address, find its address on the network and use it
 * for the links; `network` is the service's /network. `changed` is called whenever the links'
 * origin changes (found, or chosen by the reader).
 */
export async function findNetworkAddress(network, matchId, changed) {
  const host = window.location.hostname.includes(":") ? `[${window.location.hostname}]` : window.location.hostname;
  if (!LOOPBACK.test(host)) return;
  let addresses = [];
  try {
    const answer = await fetch(network, { headers: { Accept: "application/json" }, cache: "no-store" });
    if (answer.ok) addresses = (await answer.json()).addresses || [];
  } catch (error) {
    addresses = []; // offline: the links stay as they are, and the notice says why
  }
  const reachable = addresses.filter((address) => address.reachable).map((address) => address.origin);
  const text = $("local-host-text");
  const field = $("address-field");
  if (reachable.length) {
    const chosen = kept(`origin.${matchId}`);
    origin = reachable.includes(chosen) ? chosen : reachable[0];
    text.textContent = say("local_offer", { host: window.location.host });
    const choice = $("address-choice");
    choice.replaceChildren(...reachable.map((each) => make("option", { value: each, text: each })));
    choice.value = origin;
    choice.onchange = () => {
      origin = choice.value;
      keep(`origin.${matchId}`, origin);
      changed();
    };
    field.hidden = reachable.length < 2;
    changed();
  } else if (addresses.length) {
    text.textContent = say("local_closed", { host: window.location.host, address: addresses[0].origin });
    field.hidden = true;
  } else {
    text.textContent = say("local_alone", { host: window.location.host });
    field.hidden = true;
  }
  $("local-host").hidden = false;
}
