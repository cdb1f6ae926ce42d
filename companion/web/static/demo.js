// The demo's seat hand-over (served by `dog-companion demo`, and by `run` on the simulated
// table): a person at a seat's phone takes the seat from its bot and gives it back, sees the
// seat's hand, taps the card to pass in the partner exchange and, once a card is announced
// on the card pad, sees that card's legal moves, each played on the virtual board by a hand. The endpoints are /api/demo…
// (docs/sim.md). This script runs after page.js and uses its helpers ($, el, send, session,
// page.state); the texts come from the #demo section's data attributes (the catalogue).
"use strict";

const demo = { box: $("demo"), key: "", busy: false, again: false };
const DEMO_POLL_MS = 2000;   // the bots' game moves on without the table's state changing

async function demoGet(url) {
  try {
    const response = await fetch(url, { credentials: "same-origin" });
    return response.ok ? await response.json() : null;
  } catch (error) {
    return null;
  }
}

function demoSeat() {
  return session.role === "seat" && Number.isInteger(session.seat) ? session.seat : null;
}

async function demoRefresh() {
  if (demo.busy) { demo.again = true; return; }
  demo.busy = true;
  try {
    do {
      demo.again = false;
      await demoShow();
    } while (demo.again);
  } finally {
    demo.busy = false;
  }
}

async function demoShow() {
  const seat = demoSeat();
  const status = seat === null ? null : await demoGet("/api/demo");
  const playing = status && status.running
    && (status.bots.includes(seat) || status.people.includes(seat));
  demo.box.hidden = !playing;
  if (!playing) return;
  const person = status.people.includes(seat);
  const texts = demo.box.dataset;
  $("demo-status").textContent = person ? texts.person : texts.bot;
  $("demo-take").hidden = person;
  $("demo-release").hidden = !person;
  $("demo-seat").hidden = !person;
  if (!person) return;
  const view = await demoGet(`/api/demo/seats/${seat}`);
  if (!view) return;
  const state = page.state || {};
  const announced = state.announced && state.announced.player === seat
    ? state.announced.card : null;
  const moves = view.to_move && announced ? view.moves[announced] || [] : [];
  const key = JSON.stringify([view.hand, view.to_move, view.give, announced, moves]);
  if (key === demo.key) return;
  demo.key = key;
  $("demo-hand").replaceChildren(...view.hand.map((card) => {
    if (!view.give) return el("span", { class: "card", "data-card": card, text: card });
    const button = el("button", { type: "button", class: "card", "data-card": card,
                                  text: card });
    button.addEventListener("click", () => demoGive(seat, card));
    return button;
  }));
  $("demo-hint").textContent = view.give ? texts.give : !view.to_move ? texts.wait
    : !announced ? texts.announce : moves.length ? "" : texts.none;
  $("demo-moves").replaceChildren(...moves.map((notation) => {
    const button = el("button", { type: "button", class: "secondary", "data-move": notation,
                                  text: notation });
    button.addEventListener("click", () => demoPlay(seat, announced, notation));
    return el("li", {}, [button]);
  }));
}

async function demoPlay(seat, card, notation) {
  if (await send(`/api/demo/seats/${seat}/play`, { card, move: notation })) {
    $("demo-moves").replaceChildren();
  }
}

async function demoGive(seat, card) {
  if (await send(`/api/demo/seats/${seat}/give`, { card })) {
    demo.key = "";
    demoRefresh();
  }
}

async function demoHandOver(action) {
  const seat = demoSeat();
  if (seat === null) return;
  await send(`/api/demo/seats/${seat}/${action}`, {});
  demo.key = "";
  demoRefresh();
}

if (demo.box) {
  $("demo-take").addEventListener("click", () => demoHandOver("take"));
  $("demo-release").addEventListener("click", () => demoHandOver("release"));
  // Every state the page shows sets body[data-version]: look at the seat again then.
  new MutationObserver(demoRefresh).observe(document.body,
                                            { attributes: true, attributeFilter: ["data-version"] });
  setInterval(() => { if (!document.hidden) demoRefresh(); }, DEMO_POLL_MS);
  demoRefresh();
}
