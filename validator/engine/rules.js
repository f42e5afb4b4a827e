/* The rules of Road to 300 in JavaScript: a mirror of validator/engine (board.py, game.py,
 * rules.py) for the browser game play.html. No dependencies, no build step: a classic script
 * that defines `Road300Rules` in a page and is `require`d by Node in the tests.
 *
 * It mirrors the engine's legal choices and their order exactly (tests/perft/test_rules_js.py
 * checks it against the Python engine on thousands of positions): when the engine changes,
 * this file changes with it. Fields are indices 0..35 (row-major), as in the engine; a set of
 * fields is an array of 36 zeros and ones (JavaScript's bit operators stop at 32 bits).
 */
(function (root, factory) {
  "use strict";
  var api = factory();
  if (typeof module === "object" && module.exports) {
    module.exports = api;
  } else {
    root.Road300Rules = api;
  }
})(typeof self !== "undefined" ? self : this, function () {
  "use strict";

  var SIZE = 6;
  var FIELDS = 36;
  var OUTSIDE = -1;
  var VALUES = [
    30, 25, 20, 20, 25, 30,
    25, 15, 10, 10, 15, 25,
    20, 10, 5, 5, 10, 20,
    20, 10, 5, 5, 10, 20,
    25, 15, 10, 10, 15, 25,
    30, 25, 20, 20, 25, 30
  ];
  var CORNERS = [0, SIZE - 1, FIELDS - SIZE, FIELDS - 1];
  var END = { NO_MOVE: "no-move", REROLLS: "rerolls", DICE_EXHAUSTED: "dice-exhausted",
              ESCAPED: "escaped" };

  function isCorner(i) { return CORNERS.indexOf(i) >= 0; }

  // Up, left, right, down: the engine's order (board.NEIGHBOURS, in board order), which fixes
  // the walks found.
  var NEIGHBOURS = [];
  for (var i = 0; i < FIELDS; i++) {
    var row = Math.floor(i / SIZE), col = i % SIZE, out = [];
    [[-1, 0], [0, -1], [0, 1], [1, 0]].forEach(function (d) {
      var r = row + d[0], c = col + d[1];
      if (r >= 0 && r < SIZE && c >= 0 && c < SIZE) out.push(r * SIZE + c);
    });
    NEIGHBOURS.push(out);
  }

  function index(row, col) { return (row - 1) * SIZE + (col - 1); }
  function fieldName(i) { return (Math.floor(i / SIZE) + 1) + "/" + (i % SIZE + 1); }
  function emptySet() { var s = []; for (var k = 0; k < FIELDS; k++) s.push(0); return s; }

  /* A ruleset: the engine's Ruleset switches (rules.py), with the same defaults. */
  function ruleset(spec) {
    spec = spec || {};
    var r = {
      name: spec.name || "standard",
      pass_counting: spec.pass_counting || "in-a-row",
      pass_limit: spec.pass_limit || 3,
      scoring: spec.scoring || "all-circles",
      escape_bonus: spec.escape_bonus === undefined ? null : spec.escape_bonus,
      max_rings: spec.max_rings || 0,
      in_and_out: !!spec.in_and_out
    };
    r.escape = r.escape_bonus !== null;
    r.rings = r.max_rings > 0;
    r.can_leave = r.escape || r.in_and_out;
    return r;
  }

  var RULESETS = {
    standard: ruleset({ name: "standard" }),
    bga: ruleset({ name: "bga", pass_counting: "total" }),
    literal: ruleset({ name: "literal", scoring: "crossed-circles" })
  };

  function newGame(rings) {
    return { crossed: emptySet(), circled: emptySet(), pos: OUTSIDE, passes: 0,
             passes_in_row: 0, rings_left: rings || 0, end: null };
  }

  function copyState(s) {
    return { crossed: s.crossed.slice(), circled: s.circled.slice(), pos: s.pos,
             passes: s.passes, passes_in_row: s.passes_in_row,
             rings_left: s.rings_left, end: s.end };
  }

  function taken(s) {
    var t = emptySet();
    for (var k = 0; k < FIELDS; k++) t[k] = s.crossed[k] | s.circled[k];
    return t;
  }

  /* Every field a pair of the dice names, with its movement die, in board order. */
  function candidates(dice) {
    var seen = {}, a = dice[0], b = dice[1], c = dice[2];
    [[a, b, c], [a, c, b], [b, c, a]].forEach(function (t) {
      var f1 = index(t[0], t[1]), f2 = index(t[1], t[0]);
      if (!(f1 in seen)) seen[f1] = t[2];
      if (!(f2 in seen)) seen[f2] = t[2];
    });
    return Object.keys(seen).map(Number).sort(function (x, y) { return x - y; })
      .map(function (f) { return { field: f, die: seen[f] }; });
  }

  function availableCrosses(s, dice) {
    var t = taken(s);
    return candidates(dice).filter(function (c) { return !t[c.field]; });
  }

  function blockedAfter(s, cross) {
    var b = taken(s);
    b[cross] = 1;
    return b;
  }

  function firstSteps(blocked, start, steps) {
    if (steps < 1) return [];
    var options = start === OUTSIDE ? CORNERS : NEIGHBOURS[start];
    return options.filter(function (f) { return !blocked[f]; });
  }

  /* The engine's one walk search (game._search): [end, first walk found] pairs in the order
   * found; `exact` walks of exactly `steps`, else the free corners passed within `steps`. */
  function search(blocked, start, steps, exact) {
    var found = [], seenEnd = {}, path = [];
    var visited = blocked.slice();
    if (start !== OUTSIDE) visited[start] = 1;
    function step(cur, left) {
      if (exact ? left === 0 : isCorner(cur)) {
        if (!seenEnd[cur]) { seenEnd[cur] = true; found.push([cur, path.slice()]); }
      }
      if (left === 0) return;
      var ns = NEIGHBOURS[cur];
      for (var k = 0; k < ns.length; k++) {
        var nxt = ns[k];
        if (!visited[nxt]) {
          visited[nxt] = 1; path.push(nxt);
          step(nxt, left - 1);
          path.pop(); visited[nxt] = 0;
        }
      }
    }
    firstSteps(blocked, start, steps).forEach(function (first) {
      visited[first] = 1; path.push(first);
      step(first, steps - 1);
      path.pop(); visited[first] = 0;
    });
    return found;
  }

  function walks(blocked, start, steps) { return search(blocked, start, steps, true); }

  /* Corners the burglar can leave through within `steps`: the empty walk first when
   * standing on a corner (game.exit_walks). */
  function exitWalks(blocked, start, steps) {
    var found = [];
    if (start !== OUTSIDE && isCorner(start)) found.push([start, []]);
    // The search never returns to its start field, so no corner is found twice.
    return found.concat(search(blocked, start, steps, false));
  }

  function hasMove(blocked, start, steps, rules) {
    if (walks(blocked, start, steps).length) return true;
    return rules.can_leave && exitWalks(blocked, start, steps).length > 0;
  }

  /* After crossing out `cross`: the walks' ends and the exits (when the rules allow one). */
  function reach(s, cross, rules) {
    var blocked = blockedAfter(s, cross.field);
    return { ends: walks(blocked, s.pos, cross.die),
             exits: rules.can_leave ? exitWalks(blocked, s.pos, cross.die) : [] };
  }

  function leavesMove(s, cross, rules) {
    return hasMove(blockedAfter(s, cross.field), s.pos, cross.die, rules);
  }

  function gameGoesOn(s, dice, rules) {
    return availableCrosses(s, dice).some(function (c) { return leavesMove(s, c, rules); });
  }

  function exitKinds(rules) {
    var kinds = [];
    if (rules.escape) kinds.push("escape");
    if (rules.in_and_out) kinds.push("leave");
    return kinds;
  }

  /* Every legal action for this roll, in the engine's order (game.legal_actions). An action
   * is {kind: "reroll"} | {kind: "ring"} | {kind: "play", cross, die, move, exit, walk}. */
  function legalActions(s, dice, rules) {
    if (s.end !== null) return [];
    var crosses = availableCrosses(s, dice);
    if (!crosses.length) return [{ kind: "reroll" }];
    var actions = [];
    if (s.rings_left > 0 && rules.rings) actions.push({ kind: "ring" });
    crosses.forEach(function (cross) {
      var r = reach(s, cross, rules);
      r.ends.forEach(function (e) {
        actions.push({ kind: "play", cross: cross.field, die: cross.die, move: e[0], exit: null,
                       walk: e[1] });
      });
      exitKinds(rules).forEach(function (kind) {
        r.exits.forEach(function (e) {
          actions.push({ kind: "play", cross: cross.field, die: cross.die, move: e[0],
                         exit: kind, walk: e[1] });
        });
      });
      if (!r.ends.length && !r.exits.length) {
        actions.push({ kind: "play", cross: cross.field, die: cross.die, move: null,
                       exit: null, walk: [] });
      }
    });
    return actions;
  }

  /* Play one legal action on a roll (game.apply for the actions legalActions gives). */
  function apply(s, dice, action, rules) {
    if (s.end !== null) throw new Error("the game is already over");
    var n = copyState(s);
    if (action.kind === "reroll") {
      n.passes += 1;
      n.passes_in_row += 1;
      var count = rules.pass_counting === "in-a-row" ? n.passes_in_row : n.passes;
      if (count >= rules.pass_limit) n.end = END.REROLLS;
      return n;
    }
    if (action.kind === "ring") {
      n.rings_left -= 1;
      n.passes_in_row = 0;
      return n;
    }
    var start = s.pos;
    n.crossed[action.cross] = 1;
    if (start !== OUTSIDE) n.crossed[start] = 1;
    n.passes_in_row = 0;
    if (action.exit === "escape") {
      n.end = END.ESCAPED;
    } else if (action.exit === "leave") {
      n.pos = OUTSIDE;
    } else if (action.move === null) {
      n.end = END.NO_MOVE;
    } else {
      n.circled[action.move] = 1;
      n.pos = action.move;
    }
    return n;
  }

  /* `apply` on row `row` (0-based) of `rows`: the file's last row ends the game there. */
  function applyRow(s, rows, row, action, rules) {
    var n = apply(s, rows[row], action, rules);
    if (row + 1 >= rows.length && n.end === null) n.end = END.DICE_EXHAUSTED;
    return n;
  }

  function score(s, rules) {
    var total = 0;
    for (var k = 0; k < FIELDS; k++) {
      var counts = rules.scoring === "all-circles" ? s.circled[k] : s.circled[k] & s.crossed[k];
      if (counts) total += VALUES[k];
    }
    if (s.end === END.ESCAPED && rules.escape_bonus !== null) total += rules.escape_bonus;
    return total;
  }

  return {
    SIZE: SIZE, FIELDS: FIELDS, OUTSIDE: OUTSIDE, VALUES: VALUES, CORNERS: CORNERS, END: END,
    NEIGHBOURS: NEIGHBOURS, RULESETS: RULESETS, ruleset: ruleset, index: index,
    fieldName: fieldName, isCorner: isCorner, newGame: newGame, candidates: candidates,
    availableCrosses: availableCrosses, blockedAfter: blockedAfter, walks: walks,
    exitWalks: exitWalks, hasMove: hasMove, reach: reach, leavesMove: leavesMove,
    gameGoesOn: gameGoesOn, legalActions: legalActions, apply: apply, applyRow: applyRow,
    score: score
  };
});
