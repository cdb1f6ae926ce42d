// The referee page: one page with several views, kept current by the table's event stream.
// The table decides; the page shows its state and sends what people tap (INTERFACES.md
// section 5). No framework; no inline script (the Content-Security-Policy forbids it).
"use strict";

const $ = (id) => document.getElementById(id);
const RECONNECT_MS = 10000;   // after a refused stream, as the server's Retry-After says
const CAMERA_IMAGE_MS = 1500; // the camera view's image is fetched again this often
const texts = JSON.parse($("page-texts").textContent);
const profile = JSON.parse($("page-profile").textContent);
const session = JSON.parse(($("page-session") || { textContent: "{}" }).textContent || "{}");
const page = {
  state: null, board: null, view: document.body.dataset.view, manual: null, results: null,
  resultsKey: "", history: null, historyKey: "", verdictKey: "", verdictText: null,
  replay: null, cameraBoard: null, events: null, cameraTimer: null, cameraLoading: false,
};

function say(template, args) {
  return template.replace(/%\((\w+)\)s/g, (_, key) => (args && key in args ? args[key] : ""));
}

function el(name, attributes, children) {
  const node = document.createElement(name);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children || []) node.append(child);
  return node;
}

// ---- talking to the table ---------------------------------------------------------------

async function send(url, body) {
  const headers = { "Content-Type": "application/json" };
  if (session.csrf) headers["X-CSRF-Token"] = session.csrf;
  let response;
  try {
    response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body || {}),
                                  credentials: "same-origin" });
  } catch (error) {
    toast(texts.disconnected);
    return null;
  }
  let answer = {};
  try { answer = await response.json(); } catch (error) { answer = {}; }
  if (!response.ok) {
    toast(say(texts.error, { message: answer.error || response.statusText }));
    // Refused as not allowed: the role may have changed (a revoked seat, an expired login).
    if (response.status === 403) refreshSession();
    return null;
  }
  if (answer && answer.format === "dog-table/1") showState(answer);
  return answer;
}

async function refreshSession() {
  try {
    const response = await fetch("/api/session", { credentials: "same-origin" });
    if (!response.ok) return;
    Object.assign(session, await response.json());
  } catch (error) { return; }
  if (page.state) showState(page.state);
}

function toast(message) {
  const node = $("toast");
  node.textContent = message;
  node.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { node.hidden = true; }, 4000);
}

function connect() {
  const status = $("connection");
  if (page.events) page.events.close();
  const events = new EventSource("/api/events");
  page.events = events;
  let first = true;
  const receive = (event) => {
    // A stream's first state is the table now, even with a lower version (a restarted table
    // counts again); later ones and the answers of requests only ever move forward.
    showState(JSON.parse(event.data), first);
    first = false;
  };
  events.addEventListener("message", receive);
  events.addEventListener("state", receive);
  events.onopen = () => {
    first = true;
    status.textContent = texts.connected;
    status.classList.remove("lost");
    $("offline").hidden = true;
    document.body.classList.remove("offline");
  };
  events.onerror = () => {
    status.textContent = "";
    status.classList.add("lost");
    $("offline").hidden = false;
    document.body.classList.add("offline");
    // The browser reconnects by itself (resuming with Last-Event-ID) unless the server
    // refused the stream (503 when the table serves its most pages): then try again later.
    if (events.readyState === EventSource.CLOSED && page.events === events) {
      setTimeout(() => { if (page.events === events) connect(); }, RECONNECT_MS);
    }
  };
}

// A phone that slept may hold a stream that died without a word: on waking, a fresh one (its
// first message is the current state).
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && page.events) connect();
});

// ---- who is looking ---------------------------------------------------------------------

function isReferee() { return session.role === "referee"; }

function mover(state) {
  return state && state.phase === "play" && state.position ? state.position.turn : null;
}

function mayPlay(state) {
  const turn = mover(state);
  if (turn === null) return false;
  return isReferee() || (session.role === "seat" && session.seat === turn);
}

function playerName(state, index) {
  const player = (state.players || [])[index];
  return player ? player.name : say(texts.player, { n: index + 1 });
}

function cardName(card) { return card === "JOKER" ? "Joker" : card; }

// A move's notation (INTERFACES.md: "7: red T3→T8 ×blue@T21") in the reader's words.
function notation(text) {
  const words = { ...texts.colors, ...texts.notation_words, JOKER: "Joker" };
  return (text || "").replace(/\b(no effect|back|as|JOKER|red|yellow|green|blue|white|black)\b/g,
                              (word) => words[word] || word);
}

// ---- the state on the page ---------------------------------------------------------------

function showState(state, current = false) {
  if (page.state && state.version < page.state.version && !current) return;
  page.state = state;
  document.body.dataset.version = state.version;
  document.body.dataset.phase = state.phase;
  document.body.dataset.role = session.role || "watcher";
  showLogin();
  document.body.classList.toggle("may-play", mayPlay(state));
  showTurn(state);
  showStatus(state);
  showAnnounced(state);
  showVerdict(state);
  showCardpad(state);
  showManual(state);
  showSeats(state);
  showSetup(state);
  $("undo").disabled = !state.moves;
  paintLive();
  if (page.view === "history") loadHistory();
  if (page.view === "calibration") showCamera(state);
  if (page.view === "settings") showSettings(state);
}

// Whether `node` must be redrawn for `parts` (what it shows); remembers them. Untouched nodes
// cost the browser no style or layout work, which counts with many pages open.
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

function stale(node, parts) {
  const key = JSON.stringify(parts);
  if (node.dataset.key === key) return false;
  node.dataset.key = key;
  return true;
}

function showTurn(state) {
  const node = $("turn");
  if (!stale(node, [state.phase, state.winners, mover(state), state.players, session.role, session.seat])) return;
  node.replaceChildren();
  const turn = mover(state);
  if (state.phase === "setup") {
    node.textContent = texts.phase_setup;
  } else if (state.phase === "over") {
    const names = (state.winners || []).map((i) => playerName(state, i)).join(", ");
    node.textContent = `${texts.phase_over} ${say(texts.winners, { names })}`;
  } else if (turn !== null) {
    const player = state.players[turn] || {};
    const dot = el("span", { class: `dot ${player.color || ""}`, text: texts.initials[player.color] || "" });
    const seat = (player.at ?? turn) + 1;
    const where = `(${texts.colors[player.color] || player.color}, ${say(texts.seat, { seat })})`;
    node.append(dot, " ", el("strong", { text: say(texts.to_move, { name: playerName(state, turn) }) }),
                " ", el("span", { class: "seat", text: where }));
    if (session.role === "seat" && session.seat === turn) {
      node.append(" ", el("span", { class: "yours", text: texts.your_turn }));
      // A phone in a pocket notices (browsers allow it once the page has been tapped).
      const tapped = !navigator.userActivation || navigator.userActivation.hasBeenActive;
      if (navigator.vibrate && tapped) navigator.vibrate(200);
    }
  }
}

function showStatus(state) {
  const node = $("status");
  const mine = session.role === "seat" ? `${say(texts.your_seat, { name: playerName(state, session.seat) })} · ` : "";
  setText(node, state.phase !== "play" ? "" : mine + say(texts.round, {
    round: state.round, cards: state.hand_size ?? "", dealer: playerName(state, state.dealer) }));
  $("exchange").hidden = !state.exchange;   // the table shows it in team games only
  $("exchange-done").hidden = !mayPlay(state);
  $("reading-error").hidden = !state.reading_error;
  setText($("reading-error"), readingError(state));
  $("undo-requested").hidden = !state.undo_requested;
  $("notice").hidden = !state.notice;
  setText($("notice"), state.notice || "");
  $("unsettled-long").hidden = !(state.camera && state.camera.unsettled_long);
  const disturbed = state.disturbed || [];
  $("disturbed").hidden = disturbed.length === 0;
  setText($("disturbed"), `${texts.disturbed} (${disturbed.join(", ")})`);
  const legend = $("legend");
  const players = state.players || [];
  if (!stale(legend, [players, state.counts, state.folded, turnOf(state)])) return;
  legend.replaceChildren(...players.map((player, i) => {
    const count = (state.counts || [])[i];
    const out = (state.folded || []).includes(i);
    return el("li", { class: i === turnOf(state) ? "turn" : "" }, [
      el("span", { class: `dot ${player.color}`, text: texts.initials[player.color] || "" }),
      ` ${player.name} `,
      el("span", { class: "count", text: out ? texts.folded
                                             : count === undefined ? "" : say(texts.cards_left, { count }) }),
    ]);
  }));
}

function turnOf(state) { return mover(state); }

// Why the camera's reading is no position, in the reader's words where the code is known.
function readingError(state) {
  const coded = state.reading_error_code;
  const template = coded && texts.reading_errors[coded.code];
  if (!template) return state.reading_error || "";
  const args = { ...coded.args };
  for (const key of ["color", "owner"]) if (args[key]) args[key] = texts.colors[args[key]] || args[key];
  return say(template, args);
}

function showAnnounced(state) {
  const node = $("announced");
  if (!stale(node, [state.phase, state.announced, state.pending, state.players, state.winners])) return;
  node.replaceChildren();
  if (state.phase === "over") {
    const names = (state.winners || []).map((i) => playerName(state, i)).join(", ");
    node.append(el("strong", { class: "winners", text: `🏆 ${say(texts.winners, { names })}` }));
  }
  if (state.phase !== "play") return;
  if (state.announced) {
    node.append(el("span", { class: "big-card", text: cardName(state.announced.card) }),
                el("span", { text: say(texts.announced, { name: playerName(state, state.announced.player),
                                                          card: cardName(state.announced.card) }) }));
  } else {
    node.append(el("span", { class: "hint", text: texts.no_card }));
  }
  if (state.pending === "in progress") node.append(el("p", { class: "hint", text: texts.in_progress }));
}

// ---- the verdict --------------------------------------------------------------------------

function showVerdict(state) {
  const verdict = state.verdict;
  const box = $("verdict");
  box.hidden = !verdict;
  if (!verdict) { page.verdictKey = ""; return; }
  const key = JSON.stringify([verdict.card, verdict.move, verdict.code, verdict.args, verdict.observed]);
  box.classList.toggle("legal", verdict.legal);
  box.classList.toggle("illegal", !verdict.legal);
  setText($("verdict-title"), `${verdict.legal ? "✓" : "✗"} ${verdict.legal ? texts.legal : texts.illegal} · ${cardName(verdict.card)}`);
  setText($("verdict-move"), notation(verdict.move));
  if (key !== page.verdictKey) {
    page.verdictKey = key;
    page.verdictText = null;
    // The table sends the sentence in both languages; older tables only the code.
    if (verdict.code && !verdict.reasons) loadVerdictText(key);
    drawNearest(verdict);
    showSnapshots(verdict);
  }
  const words = page.verdictText;
  const sentence = (verdict.reasons || {})[document.documentElement.lang];
  setText($("verdict-reason"), sentence || (words && words.reason) || verdict.reason || "");
  const rule = (words && words.rule) || verdict.rule;
  setText($("verdict-rule"), rule ? say(texts.rule, { rule: texts.rules[rule] || rule }) : "");
  $("verdict-actions").hidden = verdict.legal || state.pending !== "illegal";
  setText($("verdict-hint"), !verdict.legal && state.pending === "illegal" ? texts.put_back : "");
}

async function loadVerdictText(key) {
  try {
    const response = await fetch("/page/verdict.json", { credentials: "same-origin" });
    if (!response.ok) return;
    const words = await response.json();
    if (page.verdictKey !== key) return;
    page.verdictText = words;
    showVerdict(page.state);
  } catch (error) { /* the English reason stays */ }
}

function showSnapshots(verdict) {
  const shots = verdict.snapshots;
  $("verdict-snapshots").hidden = !shots;
  if (!shots) return;
  $("snapshot-before").src = `/api/snapshots/${encodeURIComponent(shots.before)}`;
  $("snapshot-after").src = `/api/snapshots/${encodeURIComponent(shots.after)}`;
}

function drawNearest(verdict) {
  const list = $("nearest");
  const nearest = verdict.legal ? [] : verdict.nearest || [];
  $("nearest-title").hidden = nearest.length === 0;
  const observed = window.DogBoard.positionHoles(verdict.observed, profile);
  list.replaceChildren(...nearest.map((near) => {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("class", "board small");
    const small = window.DogBoard.drawBoard(svg, profile, texts.initials, { small: true });
    const holes = window.DogBoard.positionHoles(near.result, profile);
    const changed = window.DogBoard.changedHoles(observed, holes);
    window.DogBoard.paintBoard(small, {
      holes, expected: changed.filter((id) => holes[id]), wrong: changed.filter((id) => !holes[id]),
    });
    const item = el("li", {}, [svg, el("p", { class: "notation", text: notation(near.notation) })]);
    for (const line of near.differences || []) item.append(el("p", { class: "difference", text: difference(line) }));
    const button = el("button", { type: "button", class: "secondary referee-action", text: texts.set_this });
    button.addEventListener("click", asReferee(() => send("/api/override", { position: near.result })));
    item.append(button);
    return item;
  }));
}

// One of a nearest result's differences ("red: T12 observed, T13 expected") in the reader's words.
function difference(line) {
  const found = /^(\w+): (\S+) observed, (\S+) expected$/.exec(line);
  if (!found) return line;
  const [, color, seen, wanted] = found;
  const text = say(texts.difference, { color: texts.colors[color] || color, seen, wanted });
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// ---- the card pad -------------------------------------------------------------------------

function showCardpad(state) {
  const pad = $("cardpad");
  const camera = (state.camera || {}).status || "manual";
  if (!stale(pad, [state.phase, state.announced, mover(state), session.role, session.seat, camera])) return;
  const playing = state.phase === "play";
  pad.hidden = !playing || !(isReferee() || session.role === "seat");
  const allowed = mayPlay(state);
  const title = $("cardpad-title");
  title.textContent = allowed ? title.dataset.title : texts.not_your_turn;
  for (const button of pad.querySelectorAll("button")) button.disabled = !allowed;
  const card = state.announced ? state.announced.card : null;
  for (const button of pad.querySelectorAll(".card")) {
    button.classList.toggle("chosen", button.dataset.card === card);
    button.setAttribute("aria-pressed", String(button.dataset.card === card));
  }
  // A Joker may be narrowed to the card it stands for (only the lit targets and listed results).
  $("joker-as").hidden = card !== "JOKER";
  const stood = (state.announced && state.announced.as) || "";
  for (const button of pad.querySelectorAll("#joker-as button")) {
    button.classList.toggle("chosen", card === "JOKER" && button.dataset.as === stood);
    button.setAttribute("aria-pressed", String(card === "JOKER" && button.dataset.as === stood));
  }
  $("done").disabled = !allowed || !card;
  $("done").hidden = camera === "manual";    // without a camera there is no reading to judge
  $("manual-open").disabled = !allowed || !card;
}

// ---- manual entry: tap a marble, tap where it went ---------------------------------------

function openManual() {
  const state = page.state;
  page.manual = { holes: window.DogBoard.positionHoles(state.position, profile), parts: [],
                  from: null, position: null };
  $("manual").hidden = false;
  loadResults();
  filterResults();
  showManual(state);
  paintLive();
}

function closeManual() {
  page.manual = null;
  $("manual").hidden = true;
  paintLive();
}

function showManual(state) {
  const manual = page.manual;
  if (!manual) return;
  if (!mayPlay(state) || !state.announced) { closeManual(); return; }
  const hint = manual.from ? say(texts.manual_next, { hole: manual.from }) : texts.manual_pick;
  setText($("manual-hint"), hint);
  setText($("manual-parts"), manual.parts.length
    ? say(texts.manual_parts, { parts: manual.parts.join(", ") }) : texts.manual_none);
  $("manual-submit").disabled = manual.parts.length === 0 && !manual.position;
  loadResults();
}

function colorSeat(color) {
  const player = (page.state.players || []).find((p) => p.color === color);
  if (player) return player.at;
  const index = (page.state.position.players || []).findIndex((p) => p.color === color);
  return index < 0 ? null : page.state.position.players[index].at ?? index;
}

function freeKennel(holes, color) {
  const seat = colorSeat(color);
  return Object.keys(holes).find((id) => id.startsWith(`K${seat}.`) && !holes[id]) || null;
}

function tapHole(id) {
  const manual = page.manual;
  if (!manual) return;
  const holes = manual.holes;
  manual.position = null;
  if (!manual.from) {
    if (holes[id]) manual.from = id;
  } else if (manual.from === id) {
    manual.from = null;
  } else {
    const from = manual.from;
    const moving = holes[from];
    const there = holes[id];
    const card = page.state.announced ? page.state.announced.card : "";
    let part = `${texts.initials[moving] || moving} ${from}→${id}`;
    if (there && card === "J") {
      holes[id] = moving;
      holes[from] = there;
      part = `${texts.initials[moving] || moving} ${from}↔${texts.initials[there] || there} ${id}`;
    } else {
      if (there) {
        const kennel = freeKennel(holes, there);
        if (kennel) holes[kennel] = there;
        part += ` ×${texts.initials[there] || there}`;
      }
      holes[id] = moving;
      holes[from] = null;
    }
    manual.parts.push(part);
    manual.from = null;
  }
  showManual(page.state);
  paintLive();
}

async function loadResults() {
  const state = page.state;
  if (!page.manual || !state.announced) return;
  // The results change with the position and the card, not with every state (the LED mirror
  // alone sends up to ten a second).
  const key = JSON.stringify([state.position, state.announced]);
  if (page.resultsKey === key) return;
  page.resultsKey = key;
  try {
    const response = await fetch("/page/moves.json", { credentials: "same-origin" });
    page.results = response.ok ? (await response.json()).moves : [];
  } catch (error) { page.results = []; }
  if (page.resultsKey !== key) return;
  $("results-count").textContent = page.results.length
    ? say(texts.results_count, { count: page.results.length }) : texts.no_results;
  filterResults();
}

function filterResults() {
  const list = $("results");
  const words = $("results-filter").value.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const shown = (page.results || []).filter((move) => {
    const text = `${move.notation} ${notation(move.notation)}`.toLowerCase();
    return words.every((word) => text.includes(word));
  }).slice(0, 60);
  list.replaceChildren(...shown.map((move) => {
    const button = el("button", { type: "button", class: "result", text: notation(move.notation) });
    if (page.manual && page.manual.position === move.result) button.classList.add("chosen");
    button.addEventListener("click", () => pickResult(move));
    return el("li", {}, [button]);
  }));
}

function pickResult(move) {
  const manual = page.manual;
  manual.position = move.result;
  manual.holes = window.DogBoard.positionHoles(move.result, profile);
  manual.parts = [notation(move.notation)];
  manual.from = null;
  showManual(page.state);
  filterResults();
  paintLive();
}

async function submitManual() {
  const manual = page.manual;
  if (!manual) return;
  const body = manual.position ? { position: manual.position } : { holes: manual.holes };
  const answer = await send("/api/observe", body);
  if (answer) closeManual();
}

// ---- the live board ------------------------------------------------------------------------

function paintLive() {
  const state = page.state;
  if (!state || !page.board) return;
  const verdict = state.pending === "illegal" && state.verdict ? state.verdict : null;
  const seats = {};
  (state.players || []).forEach((player, i) => {
    seats[player.at ?? i] = { name: player.name, turn: i === mover(state) };
  });
  const manual = page.manual;
  window.DogBoard.paintBoard(page.board, {
    holes: manual ? manual.holes : shownHoles(state, verdict),
    leds: state.leds,
    targets: manual ? [] : state.targets,
    wrong: verdict && !manual ? verdict.wrong : [],
    expected: verdict && !manual ? verdict.expected : [],
    disturbed: state.disturbed,
    progress: state.progress,
    selected: manual && manual.from ? [manual.from] : [],
    seats,
  });
}

// The holes to draw: the camera's reading; during a dispute entered by hand (or seen by the
// simulated camera, which shows the table's belief) the position that was judged.
function shownHoles(state, verdict) {
  const camera = state.camera || {};
  if (verdict && verdict.observed && camera.status !== "reading") {
    return window.DogBoard.positionHoles(verdict.observed, profile);
  }
  return state.holes;
}

// ---- seats and their QR codes (referee) ----------------------------------------------------

async function showSeats(state, force) {
  const list = $("seats");
  const key = JSON.stringify([session.role, state.players]);
  if (list.dataset.key === key && !force) return;
  list.dataset.key = key;
  if (!isReferee() || !(state.players || []).length) { list.replaceChildren(); return; }
  let seats = [];
  try {
    const response = await fetch("/api/seats", { credentials: "same-origin" });
    if (response.ok) seats = (await response.json()).seats;
  } catch (error) { return; }
  list.replaceChildren(...seats.map((seat) => {
    const revoke = el("button", { type: "button", class: "secondary", text: texts.revoke });
    revoke.addEventListener("click", async () => {
      if (await send(`/api/seats/${seat.seat}/revoke`, {})) showSeats(page.state, true);
    });
    return el("li", { "data-seat": seat.seat }, [
      el("img", { src: `/page/qr/${seat.seat}.svg?t=${encodeURIComponent(seat.token)}`,
                  alt: `${texts.qr_hint}: ${seat.name}`, width: "132", height: "132", class: "qr" }),
      el("p", {}, [el("span", { class: `dot ${seat.color}`, text: texts.initials[seat.color] || "" }),
                   el("strong", { text: ` ${seat.name}` })]),
      el("a", { href: seat.url, class: "seat-link", text: texts.qr_hint }),
      revoke,
    ]);
  }));
}

// ---- history and replay -------------------------------------------------------------------

async function loadHistory() {
  const state = page.state;
  if (!state) return;
  const key = `${state.phase}|${state.moves}|${state.round}`;
  if (page.historyKey === key && page.history) return;
  page.historyKey = key;
  try {
    const [moves, start] = await Promise.all(["/api/history", "/api/history/0"].map(
      async (url) => { const r = await fetch(url, { credentials: "same-origin" }); return r.ok ? r.json() : null; }));
    if (!moves || !start) return;
    page.history = { moves: moves.moves, start: start.position };
  } catch (error) { return; }
  const moves = page.history.moves;
  const slider = $("replay");
  slider.max = moves.length;
  slider.value = moves.length;
  $("moves").replaceChildren(...(moves.length ? moves.map((move) => {
    const color = (state.players[move.player] || {}).color || "";
    const item = el("li", { "data-n": move.n }, [
      el("span", { class: `dot ${color}`, text: texts.initials[color] || "" }),
      el("span", { class: "who", text: ` ${playerName(state, move.player)} ` }),
      el("span", { class: "card-chip", text: cardName(move.card) }),
      el("span", { class: "notation", text: ` ${notation(move.notation)}` }),
    ]);
    item.addEventListener("click", () => { slider.value = move.n; showReplay(); });
    return item;
  }) : [el("li", { class: "hint", text: texts.history_empty })]));
  showReplay();
}

function showReplay() {
  if (!page.replay) page.replay = window.DogBoard.drawBoard($("replay-board"), profile, texts.initials);
  const history = page.history;
  if (!history) return;
  const n = Number($("replay").value);
  const moves = history.moves;
  const position = n === 0 ? history.start : moves[n - 1].position;
  const before = n === 0 ? null : n === 1 ? history.start : moves[n - 2].position;
  const holes = window.DogBoard.positionHoles(position, profile);
  const changed = before ? window.DogBoard.changedHoles(window.DogBoard.positionHoles(before, profile), holes) : [];
  window.DogBoard.paintBoard(page.replay, { holes, progress: changed });
  $("replay-at").textContent = n === 0 ? texts.history_start : say(texts.history_at, { n, total: moves.length });
  for (const item of $("moves").querySelectorAll("li[data-n]")) {
    item.classList.toggle("current", Number(item.dataset.n) === n);
  }
  $("take-back").disabled = n >= moves.length;
}

function takeBack() {
  const n = Number($("replay").value);
  if (!window.confirm(say(texts.confirm_undo, { n }))) return;
  send("/api/undo", { to: n });
}

// ---- camera -------------------------------------------------------------------------------

function showCamera(state) {
  const camera = state.camera || { status: "manual", warnings: [], reference: false };
  $("camera-status").textContent = texts[`camera_${camera.status}`] || camera.status;
  const codes = camera.warning_codes || [];
  // Each warning in the reader's words where its code is known, else the table's English.
  const warnings = (camera.warnings || []).map((text, i) => {
    const coded = codes[i];
    const template = coded && texts.camera_warnings[coded.code];
    if (!template) return text;
    const args = { ...coded.args };
    if (args.color) args.color = texts.colors[args.color] || args.color;
    return say(template, args);
  });
  if (!camera.reference && camera.status !== "manual") warnings.unshift(texts.no_reference);
  $("camera-warnings").replaceChildren(...(warnings.length ? warnings.map((text) => el("li", { text }))
    : [el("li", { class: "none", text: texts.no_warnings })]));
  const kinds = codes.map((coded) => coded.code);
  $("camera-hint").textContent = camera.status === "lost" || kinds.includes("board_not_found")
    ? texts.hint_lost
    : kinds.some((code) => code.endsWith("_overexposed")) ? texts.hint_exposure
      : warnings.length ? texts.hint_warnings : texts.hint_ok;
  if (!page.cameraBoard) {
    page.cameraBoard = window.DogBoard.drawBoard($("camera-board"), profile, texts.initials,
                                                 { markers: true });
  }
  window.DogBoard.paintBoard(page.cameraBoard, { holes: state.holes, disturbed: state.disturbed });
  cameraImage(page.view === "calibration" && camera.status !== "manual");
}

// The live camera image, fetched again every CAMERA_IMAGE_MS while the camera view is open
// (a new URL each time: the answer is never cached). The next image replaces the shown one
// only once it has loaded, so that the picture does not flicker.
function cameraImage(on) {
  if (!on) {
    clearInterval(page.cameraTimer);
    page.cameraTimer = null;
    if (page.view === "calibration") { $("camera-image").hidden = true; $("camera-image-missing").hidden = false; }
    return;
  }
  if (page.cameraTimer) return;
  const load = () => {
    if (document.visibilityState !== "visible" || page.cameraLoading) return;
    page.cameraLoading = true;
    const overlay = $("camera-overlay").checked ? 1 : 0;
    const next = new Image();
    next.onload = () => {
      page.cameraLoading = false;
      $("camera-image").src = next.src;
      $("camera-image").hidden = false;
      $("camera-image-missing").hidden = true;
    };
    next.onerror = () => {
      page.cameraLoading = false;
      $("camera-image").hidden = true;
      $("camera-image-missing").hidden = false;
    };
    next.src = `/api/camera.jpg?overlay=${overlay}&n=${Date.now()}`;
  };
  load();
  page.cameraTimer = setInterval(load, CAMERA_IMAGE_MS);
}

// ---- settings -----------------------------------------------------------------------------

function showSettings(state) {
  setText($("state-version"), String(state.version));
  const settings = state.settings;
  if (!settings) return;
  setText($("settle-time"), say(texts.seconds, { s: settings.settle_s }));
  const form = $("settings-form");
  if (form.dataset.edited === "yes" || !stale(form, [settings])) return;
  $("setting-brightness").value = String(Math.round(settings.brightness * 100));
  $("setting-night").checked = settings.night;
  $("setting-settle").value = String(settings.settle_s);
  showBrightness();
}

function showBrightness() {
  $("setting-brightness-value").textContent = `${$("setting-brightness").value} %`;
}

async function saveSettings(event) {
  if (event) event.preventDefault();
  if (!isReferee()) { openLogin(saveSettings); return; }
  const form = $("settings-form");
  const answer = await send("/api/settings", {
    brightness: Number($("setting-brightness").value) / 100,
    night: $("setting-night").checked,
    settle_s: Number($("setting-settle").value),
  });
  if (!answer) return;
  form.dataset.edited = "";
  form.dataset.key = "";
  showSettings(answer);
  toast(texts.settings_saved);
}

// ---- setup --------------------------------------------------------------------------------

const PRESETS = {
  swiss: { start_protection: "fresh", home_entry: "not_fresh", deal_sequence: "6,5,4,3,2",
           direction: "counter-clockwise", team_game: "teams" },
  schmidt: { start_protection: "always", home_entry: "from_behind", deal_sequence: "6,5,4,3,2",
             direction: "clockwise", team_game: "teams_or_individual" },
};

// The setup starts from the game on the table (a rematch keeps names, colours and seats) until
// someone edits it.
function showSetup(state) {
  $("setup-running").hidden = state.phase === "setup";
  const form = $("setup-form");
  if (form.dataset.edited || !(state.players || []).length) return;
  const playing = new Map(state.players.map((player) => [player.at, player]));
  for (const row of setupRows()) {
    const player = playing.get(Number(row.dataset.seat));
    row.querySelector("[name=plays]").checked = Boolean(player);
    if (player) {
      row.querySelector("[name=name]").value = player.name;
      row.querySelector("[name=color]").value = player.color;
    }
  }
  setupDealers();
}

function setupPreset() {
  const form = $("setup-form");
  const preset = PRESETS[form.elements.base.value];
  for (const [key, value] of Object.entries(preset)) form.elements[key].value = value;
}

function setupRows() {
  return [...document.querySelectorAll("#setup-form tr[data-seat]")];
}

function setupDealers() {
  const select = $("first-dealer");
  const chosen = select.value;
  const playing = setupRows().filter((row) => row.querySelector("[name=plays]").checked);
  select.replaceChildren(...playing.map((row, i) =>
    el("option", { value: String(i), text: row.querySelector("[name=name]").value || say(texts.player, { n: i + 1 }) })));
  if (chosen && Number(chosen) < playing.length) select.value = chosen;
}

function setupRequest() {
  const form = $("setup-form");
  const base = form.elements.base.value;
  const rules = { base };
  let changed = false;
  for (const [key, value] of Object.entries(PRESETS[base])) {
    const mine = form.elements[key].value.replace(/\s+/g, "");
    if (mine !== value) {
      changed = true;
      rules[key] = key === "deal_sequence" ? mine.split(",").filter(Boolean).map(Number) : mine;
    }
  }
  const players = [];
  const teams = new Map();
  for (const row of setupRows()) {
    if (!row.querySelector("[name=plays]").checked) continue;
    const team = row.querySelector("[name=team]").value;
    if (team !== "") teams.set(team, [...(teams.get(team) || []), players.length]);
    players.push({ name: row.querySelector("[name=name]").value.trim(),
                   color: row.querySelector("[name=color]").value, at: Number(row.dataset.seat) });
  }
  const request = { rules: changed ? rules : base, board: Number(form.elements.board.value), players,
                    first_dealer: Number($("first-dealer").value || 0) };
  if (teams.size) request.teams = [...teams.values()];
  return request;
}

async function startGame(event) {
  event.preventDefault();
  const request = setupRequest();
  if (request.players.length < 2) { toast(texts.players_needed); return; }
  if (!isReferee()) { openLogin(() => startGame(event)); return; }
  const answer = await send("/api/setup", request);
  if (answer) { toast(texts.setup_started); go("board"); }
}

async function takeReference() {
  if (!isReferee()) { openLogin(takeReference); return; }
  const answer = await send("/api/reference", {});
  if (answer) $("reference-state").textContent = texts.reference_taken;
}

async function relearnLight() {
  if (!isReferee()) { openLogin(relearnLight); return; }
  if (!window.confirm(texts.confirm_relearn)) return;
  if (await send("/api/relearn", {})) toast(texts.light_learnt);
}

// ---- referee login ------------------------------------------------------------------------

function openLogin(then) {
  page.afterLogin = then || null;
  $("login-error").textContent = "";
  $("pin").value = "";
  $("login").showModal();
  $("pin").focus();
}

async function login(event) {
  event.preventDefault();
  const response = await fetch("/api/login", {
    method: "POST", headers: { "Content-Type": "application/json" }, credentials: "same-origin",
    body: JSON.stringify({ pin: $("pin").value }),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) { $("login-error").textContent = answer.error || response.statusText; return; }
  session.role = answer.role;
  session.csrf = answer.csrf;
  session.seat = answer.seat;
  $("login").close();
  if (page.state) showState(page.state);
  const then = page.afterLogin;
  page.afterLogin = null;
  if (then) then();
}

async function logout() {
  const answer = await send("/api/logout", {});
  if (!answer) return;
  Object.assign(session, answer);
  if (page.state) showState(page.state);
}

function showLogin() {
  const button = $("login-open");
  button.textContent = isReferee() ? button.dataset.logout : button.dataset.login;
}

function asReferee(action) {
  return () => (isReferee() ? action() : openLogin(action));
}

// ---- views and language -------------------------------------------------------------------

function go(view, push = true) {
  page.view = view;
  document.body.dataset.view = view;
  if (push) {
    history.pushState({ view }, "", view === "board" ? "/" : `/${view}`);
    window.scrollTo(0, 0);
  }
  for (const link of document.querySelectorAll("nav a[data-view]")) {
    link.classList.toggle("active", link.dataset.view === view);
    if (link.dataset.view === view) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  if (!page.state) return;
  if (view === "history") { page.historyKey = ""; loadHistory(); }
  if (view === "calibration") showCamera(page.state);
  else cameraImage(false);
  if (view === "settings") showSettings(page.state);
}

async function chooseLanguage(event) {
  event.preventDefault();
  const answer = await send("/api/language", { language: event.currentTarget.dataset.lang });
  if (answer) window.location.reload();
}

function wire() {
  page.board = window.DogBoard.drawBoard($("board"), profile, texts.initials);
  $("board").addEventListener("click", (event) => {
    const hole = event.target.closest("[data-hole]");
    if (hole) tapHole(hole.dataset.hole);
  });
  for (const link of document.querySelectorAll("a[data-view]")) {
    link.addEventListener("click", (event) => { event.preventDefault(); go(link.dataset.view); });
  }
  window.addEventListener("popstate", (event) => go((event.state && event.state.view) || "board", false));
  for (const link of document.querySelectorAll("a[data-lang]")) link.addEventListener("click", chooseLanguage);
  for (const button of document.querySelectorAll("#cardpad .card")) {
    button.addEventListener("click", () => send("/api/cards", { card: button.dataset.card }));
  }
  for (const button of document.querySelectorAll("#joker-as button")) {
    const as = button.dataset.as;
    button.addEventListener("click", () => send("/api/cards", as ? { card: "JOKER", as } : { card: "JOKER" }));
  }
  $("done").addEventListener("click", async () => { if (await send("/api/done", {})) toast(texts.done_sent); });
  $("fold").addEventListener("click", () => {
    if (window.confirm(texts.confirm_fold)) send("/api/fold", {});
  });
  $("manual-open").addEventListener("click", openManual);
  $("manual-close").addEventListener("click", closeManual);
  $("manual-reset").addEventListener("click", openManual);
  $("manual-submit").addEventListener("click", submitManual);
  $("results-filter").addEventListener("input", filterResults);
  $("accept-played").addEventListener("click", asReferee(() => send("/api/override", {})));
  $("undo").addEventListener("click", asReferee(() => send("/api/undo", {})));
  $("take-back").addEventListener("click", asReferee(takeBack));
  $("replay").addEventListener("input", showReplay);
  $("login-open").addEventListener("click", () => (isReferee() ? logout() : openLogin(null)));
  $("login-form").addEventListener("submit", login);
  $("login-cancel").addEventListener("click", () => $("login").close());
  const form = $("setup-form");
  for (const radio of form.elements.base) radio.addEventListener("change", setupPreset);
  form.addEventListener("input", () => { form.dataset.edited = "yes"; setupDealers(); });
  form.addEventListener("submit", startGame);
  $("take-reference").addEventListener("click", takeReference);
  $("relearn-light").addEventListener("click", relearnLight);
  $("exchange-done").addEventListener("click", () => send("/api/exchange", {}));
  const settings = $("settings-form");
  settings.addEventListener("input", () => { settings.dataset.edited = "yes"; showBrightness(); });
  settings.addEventListener("submit", saveSettings);
  $("camera-overlay").addEventListener("change", () => {
    clearInterval(page.cameraTimer);
    page.cameraTimer = null;
    if (page.state) showCamera(page.state);
  });
  setupDealers();
  go(page.view, false);
  connect();
}

wire();
