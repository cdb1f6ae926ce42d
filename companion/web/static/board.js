// Draws the board from its profile and keeps the marbles current over server-sent events.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const MARBLE = {
  red: "#c8102e", yellow: "#f2c200", green: "#1e8c3a", blue: "#1f4fbf",
  white: "#f4f4f0", black: "#1b1b1b",
};

function element(name, attributes) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  return node;
}

function drawBoard(svg, profile) {
  const [width, height] = profile.board_mm;
  svg.setAttribute("viewBox", `${-width / 2} ${-height / 2} ${width} ${height}`);
  svg.appendChild(element("rect", {
    x: -width / 2, y: -height / 2, width, height, rx: 18, class: "surface",
  }));
  const radius = profile.hole_diameter_mm / 2;
  for (const hole of profile.holes) {
    if (hole.led !== null) {
      // The LED under the hole: a glowing ring, dark until the strip lights it.
      svg.appendChild(element("circle", {
        cx: hole.x, cy: -hole.y, r: radius + 3.5, class: "led", "data-led": hole.id,
      }));
    }
    // Profiles have y pointing up; SVG has it pointing down.
    const start = hole.kind === "track" && hole.seat !== null;
    const circle = element("circle", {
      cx: hole.x, cy: -hole.y, r: radius, class: `hole ${hole.kind}${start ? " start" : ""}`,
      "data-hole": hole.id,
    });
    // A start field wears its seat's colour as a ring, as on the wooden board.
    if (start) circle.style.stroke = MARBLE[profile.default_colors[hole.seat]] || "";
    const title = element("title", {});
    title.textContent = hole.id;
    circle.appendChild(title);
    svg.appendChild(circle);
  }
}

function showState(svg, state) {
  let marbles = 0;
  for (const [id, color] of Object.entries(state.holes)) {
    const circle = svg.querySelector(`[data-hole="${CSS.escape(id)}"]`);
    if (!circle) continue;
    const known = color && MARBLE[color];
    circle.style.fill = known ? MARBLE[color] : "";
    circle.classList.toggle("marble", Boolean(known));
    circle.dataset.color = color || "";
    if (known) marbles += 1;
  }
  document.getElementById("marble-count").textContent = marbles;
  for (const ring of svg.querySelectorAll("[data-led]")) {
    const color = (state.leds || {})[ring.dataset.led];
    ring.style.stroke = color || "";
    ring.classList.toggle("lit", Boolean(color));
  }
}

async function start() {
  const svg = document.getElementById("board");
  const profile = await (await fetch("/api/board")).json();
  drawBoard(svg, profile);
  const status = document.getElementById("connection");
  const events = new EventSource("/events");
  events.addEventListener("state", (event) => showState(svg, JSON.parse(event.data)));
  events.onopen = () => { status.textContent = status.dataset.connected; };
  events.onerror = () => { status.textContent = status.dataset.reconnecting; };
}

start();
