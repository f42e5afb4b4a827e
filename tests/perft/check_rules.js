// Reads positions and the Python engine's answers (JSON on stdin, written by
// test_rules_js.py) and checks that validator/engine/rules.js gives the same answers.
// Prints {"positions": N, "actions": N, "mismatches": [...the first few...]} as JSON.
"use strict";
const path = require("path");
const R = require(path.resolve(__dirname, "../../validator/engine/rules.js"));

// A state as the test writes it: [crossed, circled, pos, passes, passes_in_row, rings_left,
// end], the field sets as bit masks (exact in a double up to 2**53).
function toState(s) {
  const state = R.newGame(s[5]);
  for (let i = 0; i < R.FIELDS; i++) {
    state.crossed[i] = Math.floor(s[0] / 2 ** i) % 2;
    state.circled[i] = Math.floor(s[1] / 2 ** i) % 2;
  }
  Object.assign(state, { pos: s[2], passes: s[3], passes_in_row: s[4], end: s[6] });
  return state;
}

function mask(a) {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * 2 ** i;
  return sum;
}

function fromState(s) {
  return [mask(s.crossed), mask(s.circled), s.pos, s.passes, s.passes_in_row, s.rings_left,
          s.end];
}

// An action as the test writes it: `reroll`, `ring`, or `play CROSS MOVE EXIT WALK`, `-` for
// none, the walk's fields joined by dots.
function action(a) {
  if (a.kind !== "play") return a.kind;
  const or = (v) => (v === null || v === undefined ? "-" : String(v));
  return ["play", a.cross, or(a.move), or(a.exit), a.walk.length ? a.walk.join(".") : "-"].join(" ");
}

function answer(p) {
  const rules = R.ruleset(p.rules);
  const state = toState(p.state);
  const rows = p.last ? [p.dice] : [p.dice, p.dice];
  const actions = R.legalActions(state, p.dice, rules);
  return {
    crosses: R.availableCrosses(state, p.dice).map((c) => [c.field, c.die]),
    goes_on: R.gameGoesOn(state, p.dice, rules),
    actions: actions.map(action),
    applied: p.expect.applied,
    after: p.expect.applied.map((i) => {
      const next = R.applyRow(state, rows, 0, actions[i], rules);
      return [fromState(next), R.score(next, rules)];
    }),
    score: R.score(state, rules),
  };
}

// Whether two answers are equal as JSON (undefined is written as null), without writing
// them: a quarter of the check's time was JSON.stringify.
function same(a, b) {
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!same(a[i], b[i])) return false;
    return true;
  }
  return (a === undefined ? null : a) === (b === undefined ? null : b);
}

const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const mismatches = [];
let actions = 0;
for (const p of input) {
  const got = answer(p);
  actions += got.actions.length;
  for (const key of Object.keys(p.expect)) {
    if (!same(got[key], p.expect[key])) {
      if (mismatches.length < 5) {
        mismatches.push({ position: p.name, key, engine: p.expect[key], js: got[key] });
      }
    }
  }
}
process.stdout.write(JSON.stringify({ positions: input.length, actions, mismatches }));
