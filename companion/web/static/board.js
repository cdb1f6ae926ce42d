// The board as SVG, drawn from its profile (hole positions in mm), and positions turned into
// hole readings. Used for the live board and for the small boards (nearest results, replay).
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const MARBLE_FILL = {
  red: "#c8102e", yellow: "#f2c200", green: "#1e8c3a", blue: "#1f4fbf",
  white: "#f4f4f0", black: "#1b1b1b",
};
const LIGHT_MARBLES = new Set(["yellow", "white"]);
const LABEL_MARGIN_MM = 30;   // room around the board for the players' names
const MARBLE_SCALE = 1.2;     // marbles drawn a little larger than they are: easier to read
const LABEL_OFFSET_MM = 30;   // from a kennel's centre out to its player's name

function svgNode(name, attributes) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes || {})) node.setAttribute(key, value);
  return node;
}

// Draws every hole of `profile` into `svg`; `initials` maps a colour to the letters a marble
// of that colour carries. Returns the board object that `paintBoard` updates.
function drawBoard(svg, profile, initials, options) {
  const small = Boolean(options && options.small);
  const markers = Boolean(options && options.markers);
  // The wood around the holes (a board's plain rim is left out: bigger holes on a screen),
  // and room for the players' names outside it; with `markers` the whole board and its
  // corner markers, as the camera sees them.
  const xs = profile.holes.map((hole) => hole.x), ys = profile.holes.map((hole) => -hole.y);
  const pad = profile.marble_diameter_mm + 6;
  let left = Math.min(...xs) - pad, top = Math.min(...ys) - pad;
  let width = Math.max(...xs) + pad - left, height = Math.max(...ys) + pad - top;
  if (markers) [left, top, width, height] = [-profile.board_mm[0] / 2, -profile.board_mm[1] / 2, ...profile.board_mm];
  const margin = small || markers ? 0 : LABEL_MARGIN_MM;
  svg.replaceChildren();
  svg.setAttribute("viewBox", `${left - margin} ${top - margin} ${width + 2 * margin} ${height + 2 * margin}`);
  svg.appendChild(svgNode("rect", { x: left, y: top, width, height, rx: pad, class: "surface" }));
  if (markers) drawMarkers(svg, profile);
  const holeR = profile.hole_diameter_mm / 2;
  const marbleR = (profile.marble_diameter_mm / 2) * MARBLE_SCALE;
  const board = { svg, profile, initials, holes: new Map(), labels: new Map(), painted: {} };
  if (!small) drawSeatLabels(svg, profile, board);
  for (const hole of profile.holes) {
    // Profiles have y pointing up; SVG has it pointing down.
    const x = hole.x, y = -hole.y;
    const group = svgNode("g", { class: `hole ${hole.kind}`, "data-hole": hole.id });
    const ring = svgNode("circle", { cx: x, cy: y, r: holeR + 4, class: "ring" });
    const pit = svgNode("circle", { cx: x, cy: y, r: holeR, class: "pit" });
    const start = hole.kind === "track" && hole.seat !== null;
    if (start) {
      pit.classList.add("start");
      pit.style.stroke = MARBLE_FILL[profile.default_colors[hole.seat]] || "";
    }
    group.append(ring, pit);
    const marble = svgNode("g", { class: "marble" });
    const ball = svgNode("circle", { cx: x, cy: y, r: marbleR });
    marble.appendChild(ball);
    let letter = null;
    if (!small) {
      letter = svgNode("text", { x, y: y + 0.5, "text-anchor": "middle",
                                 "dominant-baseline": "central", "font-size": (marbleR * 1.05).toFixed(1) });
      marble.appendChild(letter);
    }
    group.appendChild(marble);
    const title = svgNode("title", {});
    title.textContent = hole.id;
    group.appendChild(title);
    svg.appendChild(group);
    board.holes.set(hole.id, { group, ring, ball, letter, title });
  }
  return board;
}

function drawMarkers(svg, profile) {
  for (const marker of profile.markers || []) {
    const half = marker.size / 2;
    svg.appendChild(svgNode("rect", { x: marker.x - half, y: -marker.y - half, width: marker.size,
                                      height: marker.size, class: "marker" }));
    const label = svgNode("text", { x: marker.x, y: -marker.y, class: "marker-id",
                                    "text-anchor": "middle", "dominant-baseline": "central",
                                    "font-size": (half * 0.9).toFixed(1) });
    label.textContent = marker.id;
    svg.appendChild(label);
  }
}

function drawSeatLabels(svg, profile, board) {
  const sums = new Map();
  for (const hole of profile.holes) {
    if (hole.kind !== "kennel") continue;
    const sum = sums.get(hole.seat) || [0, 0, 0];
    sums.set(hole.seat, [sum[0] + hole.x, sum[1] + hole.y, sum[2] + 1]);
  }
  for (const [seat, [sx, sy, n]] of sums) {
    const x = sx / n, y = -sy / n;
    // Outward from the kennel, where the player sits, written along the board's edge and
    // never upside down.
    const length = Math.hypot(x, y) || 1;
    const [ux, uy] = [x / length, y / length];
    let angle = (Math.atan2(uy, ux) * 180) / Math.PI - 90;
    while (angle > 90) angle -= 180;
    while (angle <= -90) angle += 180;
    const [lx, ly] = [x + ux * LABEL_OFFSET_MM, y + uy * LABEL_OFFSET_MM];
    const label = svgNode("text", {
      x: lx, y: ly, class: "seat-label", "text-anchor": "middle", "dominant-baseline": "central",
      transform: `rotate(${angle.toFixed(1)} ${lx.toFixed(1)} ${ly.toFixed(1)})`, "data-seat": seat,
      "font-size": (profile.marble_diameter_mm * 1.15).toFixed(1),
    });
    svg.appendChild(label);
    board.labels.set(seat, label);
  }
}

// Brings the drawn board to `view`: `holes` {id: colour|null|"?"}, and optional sets of hole ids
// `leds` {id: "#rrggbb"}, `targets`, `wrong`, `expected`, `disturbed`, `selected`, `progress`.
// Only what changed since the last paint is touched.
function paintBoard(board, view) {
  const leds = view.leds || {};
  const marks = {};
  for (const key of ["targets", "wrong", "expected", "disturbed", "selected", "progress"]) {
    for (const id of view[key] || []) (marks[id] = marks[id] || []).push(key);
  }
  for (const [id, parts] of board.holes) {
    const color = view.holes ? view.holes[id] ?? null : null;
    const led = leds[id] || "";
    const mark = (marks[id] || []).join(" ");
    const key = `${color}|${led}|${mark}`;
    if (board.painted[id] === key) continue;
    board.painted[id] = key;
    const { group, ring, ball, letter, title } = parts;
    group.dataset.color = color || "";
    group.classList.toggle("full", Boolean(color));
    group.classList.toggle("unknown", color === "?");
    group.classList.toggle("light", LIGHT_MARBLES.has(color));
    for (const name of ["targets", "wrong", "expected", "disturbed", "selected", "progress"]) {
      group.classList.toggle(name, mark.includes(name));
    }
    group.classList.toggle("lit", Boolean(led));
    ring.style.stroke = led;
    ball.style.fill = color && color !== "?" ? MARBLE_FILL[color] || color : "";
    if (letter) letter.textContent = color ? board.initials[color] || "?" : "";
    title.textContent = color ? `${id}: ${board.initials[color] || color}` : id;
  }
  if (view.seats) {
    for (const [seat, label] of board.labels) {
      const seated = view.seats[seat];
      label.textContent = seated ? seated.name : "";
      label.classList.toggle("turn", Boolean(seated && seated.turn));
    }
  }
}

// The hole reading a `dog-position/1` position stands for on `profile`: every marble in a hole
// (kennel marbles in their seat's kennel holes), every other hole null.
function positionHoles(position, profile) {
  const holes = {};
  for (const hole of profile.holes) holes[hole.id] = null;
  if (!position) return holes;
  position.players.forEach((player, index) => {
    const seat = player.at ?? index;
    let kennel = 0;
    for (const peg of player.pegs) {
      let id;
      if (peg === "K") id = `K${seat}.${kennel++}`;
      else if (peg[0] === "H") id = `H${seat}.${peg.slice(1)}`;
      else id = peg.replace("*", "");
      if (id in holes) holes[id] = player.color;
    }
  });
  return holes;
}

// Hole ids whose marble differs between two readings.
function changedHoles(before, after) {
  return Object.keys(after).filter((id) => (before[id] ?? null) !== (after[id] ?? null));
}

window.DogBoard = { drawBoard, paintBoard, positionHoles, changedHoles, MARBLE_FILL };
