/* play.html: the challenge's dice file played in the browser (road300 site writes it).
 * The rules are validator/engine/rules.js (Road300Rules); this file only draws the board,
 * takes the player's choices and keeps them in localStorage so a reload resumes the game.
 * Testing hooks (fixed, docs/contest.md): [data-field="R/C"], data-legal="true",
 * data-phase on <body>, #score, #record, [data-action="undo"].
 */
(function () {
  "use strict";
  var R = window.Road300Rules;
  var data = JSON.parse(document.getElementById("game-data").textContent);
  var S = data.strings;
  var rows = data.rows;
  var rules = R.ruleset(data.rules);
  var KEY = "road300-play:" + data.sha256 + ":" + rules.name;
  var board = document.getElementById("board");
  var cells = [];
  var choices = load(); // one [cross, move or null] per round the player chose
  var selected = null; // the cross-out chosen this round, while its move is chosen
  var preview = null; // the destination whose walk is shown
  var cursor = 0;
  var typed = "";
  var game;

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (m, k) {
      return k in values ? String(values[k]) : m;
    });
  }

  function load() {
    try {
      var saved = JSON.parse(window.localStorage.getItem(KEY) || "[]");
      return Array.isArray(saved) ? saved : [];
    } catch (e) {
      return [];
    }
  }

  function save() {
    try {
      window.localStorage.setItem(KEY, JSON.stringify(choices));
    } catch (e) {
      /* storage may be off (private windows): the game still plays */
    }
  }

  /* The game so far: the player's choices replayed, forced rerolls played in between. */
  function replay() {
    var state = R.newGame(0), row = 0, k = 0, rounds = [];
    while (row < rows.length && state.end === null) {
      var dice = rows[row];
      if (!R.availableCrosses(state, dice).length) {
        state = R.applyRow(state, rows, row, { kind: "reroll" }, rules);
        rounds.push({ row: row, dice: dice, kind: "reroll" });
        row++;
        continue;
      }
      if (k >= choices.length) break;
      var c = choices[k];
      var act = R.legalActions(state, dice, rules).filter(function (a) {
        return a.kind === "play" && a.exit === null && a.cross === c[0] && a.move === c[1];
      })[0];
      if (!act) {
        choices.length = k; // a stored game that no longer fits this dice file
        break;
      }
      state = R.applyRow(state, rows, row, act, rules);
      rounds.push({ row: row, dice: dice, kind: "play", cross: act.cross, die: act.die,
                    move: act.move, walk: act.walk });
      row++;
      k++;
    }
    return { state: state, row: row, rounds: rounds };
  }

  function diceText(dice) { return dice.join(" "); }

  function recordText() {
    var lines = ["# " + S.record_comment, "dice_sha256: " + data.sha256, "rules: " + rules.name];
    game.rounds.forEach(function (r) {
      var text;
      if (r.kind === "reroll") {
        text = S.reroll_word;
      } else {
        text = "x " + R.fieldName(r.cross);
        if (r.move !== null) {
          text += " -> " + R.fieldName(r.move) + " (" + r.die + ") path " +
            r.walk.map(R.fieldName).join(" ");
        }
      }
      lines.push((r.row + 1) + ": " + diceText(r.dice) + "   " + text);
    });
    return lines.join("\n") + "\n";
  }

  /* The fields that may be chosen now, and what each does. */
  function options() {
    var st = game.state, out = {};
    if (st.end !== null || game.row >= rows.length) return out;
    var dice = rows[game.row];
    if (selected === null) {
      R.availableCrosses(st, dice).forEach(function (c) {
        out[c.field] = { cross: c, dead: !R.leavesMove(st, c, rules) };
      });
    } else {
      R.reach(st, selected, rules).ends.forEach(function (e) {
        out[e[0]] = { walk: e[1] };
      });
    }
    return out;
  }

  function phase() {
    if (game.state.end !== null) return "over";
    return selected === null ? "cross" : "move";
  }

  function status(opts) {
    var st = game.state, parts = [];
    var rerolls = [];
    for (var i = game.rounds.length - 1; i >= 0 && game.rounds[i].kind === "reroll"; i--) {
      rerolls.unshift(game.rounds[i]);
    }
    rerolls.forEach(function (r) {
      parts.push(fill(S.forced, { n: r.row + 1, dice: diceText(r.dice) }));
    });
    if (st.end !== null) {
      parts.push(fill(S.over, { score: R.score(st, rules), end: S.ends[st.end] }));
    } else {
      var dice = rows[game.row];
      parts.push(fill(S.roll, { n: game.row + 1, total: rows.length, dice: diceText(dice) }));
      if (selected === null) {
        parts.push(S.choose_cross);
      } else {
        parts.push(fill(S.choose_move, { field: R.fieldName(selected.field), die: selected.die }));
      }
    }
    return parts.join(" ");
  }

  function draw() {
    game = replay();
    var st = game.state, opts = options(), ph = phase();
    document.body.setAttribute("data-phase", ph);
    var walk = [];
    if (ph === "move") {
      // The walk to the destination under the pointer or cursor; before one is pointed at
      // (a phone has no hover), to the first destination, so a walk is always shown.
      if (preview === null || !opts[preview]) {
        var first = Object.keys(opts).map(Number).sort(function (a, b) { return a - b; })[0];
        preview = first === undefined ? null : first;
      }
      if (preview !== null) walk = opts[preview].walk;
    }
    cells.forEach(function (cell, i) {
      var o = opts[i];
      cell.setAttribute("data-legal", o ? "true" : "false");
      cell.classList.toggle("legal", !!o);
      cell.classList.toggle("dead", !!(o && o.dead));
      cell.classList.toggle("x", !!st.crossed[i] || (selected !== null && selected.field === i));
      cell.classList.toggle("o", !!st.circled[i]);
      cell.classList.toggle("here", st.pos === i);
      cell.classList.toggle("chosen", selected !== null && selected.field === i);
      var step = walk.indexOf(i);
      cell.classList.toggle("walk", step >= 0);
      cell.querySelector(".step").textContent = step >= 0 ? String(step + 1) : "";
      var label = R.fieldName(i) + ", " + fill(S.points, { n: R.VALUES[i] });
      if (st.crossed[i]) label += ", X";
      if (st.circled[i]) label += ", " + S.circle;
      if (o && o.dead) label += ", " + S.dead;
      cell.setAttribute("aria-label", label);
      cell.title = o && o.dead ? S.dead : "";
      cell.tabIndex = i === cursor ? 0 : -1;
    });
    document.getElementById("score").textContent = String(R.score(st, rules));
    document.getElementById("status").textContent = status(opts);
    var text = recordText();
    document.getElementById("record").value = text;
    var mail = document.getElementById("mail");
    if (mail) {
      mail.href = "mailto:" + data.organizer + "?subject=" +
        encodeURIComponent(S.mail_subject) + "&body=" + encodeURIComponent(text);
    }
    document.querySelector('[data-action="undo"]').disabled =
      selected === null && choices.length === 0;
  }

  function choose(i) {
    var opts = options(), o = opts[i];
    cursor = i;
    if (!o) {
      if (selected !== null && i === selected.field) selected = null; // tap again: step back
      draw();
      return;
    }
    if (selected === null) {
      if (o.dead) {
        choices.push([i, null]); // the game ends with this cross-out
        save();
      } else {
        selected = o.cross;
        preview = null;
      }
    } else {
      choices.push([selected.field, i]);
      selected = null;
      preview = null;
      save();
    }
    draw();
  }

  function undo() {
    if (selected !== null) {
      selected = null;
    } else if (choices.length) {
      choices.pop();
      save();
    }
    preview = null;
    draw();
  }

  function focusCell(i) {
    cursor = i;
    cells.forEach(function (c, k) { c.tabIndex = k === i ? 0 : -1; });
    cells[i].focus();
    if (phase() === "move") {
      preview = i;
      draw();
      cells[i].focus();
    }
  }

  for (var i = 0; i < R.FIELDS; i++) {
    var cell = document.createElement("button");
    cell.type = "button";
    cell.className = "field";
    cell.setAttribute("data-field", R.fieldName(i));
    var value = document.createElement("span");
    value.className = "value";
    value.textContent = String(R.VALUES[i]);
    var step = document.createElement("span");
    step.className = "step";
    cell.appendChild(value);
    cell.appendChild(step);
    (function (k) {
      cell.addEventListener("click", function () { choose(k); });
      cell.addEventListener("pointerenter", function () {
        if (phase() === "move" && preview !== k) { preview = k; draw(); }
      });
      cell.addEventListener("focus", function () {
        cursor = k;
        if (phase() === "move" && preview !== k) { preview = k; draw(); cells[k].focus(); }
      });
    })(i);
    board.appendChild(cell);
    cells.push(cell);
  }

  board.addEventListener("keydown", function (ev) {
    var r = Math.floor(cursor / 6), c = cursor % 6;
    var moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[ev.key]) {
      var nr = Math.min(5, Math.max(0, r + moves[ev.key][0]));
      var nc = Math.min(5, Math.max(0, c + moves[ev.key][1]));
      focusCell(nr * 6 + nc);
      ev.preventDefault();
    } else if (/^[1-6]$/.test(ev.key)) {
      typed += ev.key; // "34": row 3, column 4, as in road300 play
      if (typed.length === 2) {
        var f = R.index(+typed[0], +typed[1]);
        typed = "";
        focusCell(f);
        choose(f);
      }
      ev.preventDefault();
    }
  });

  document.addEventListener("keydown", function (ev) {
    if (ev.target && ev.target.id === "record") return;
    if (ev.key === "u" || (ev.key === "z" && (ev.ctrlKey || ev.metaKey))) {
      undo();
      ev.preventDefault();
    } else if (ev.key === "Escape" || ev.key === "Backspace") {
      if (selected !== null) { selected = null; preview = null; draw(); }
      typed = "";
      ev.preventDefault();
    }
  });

  document.querySelector('[data-action="undo"]').addEventListener("click", undo);
  document.querySelector('[data-action="new"]').addEventListener("click", function () {
    if (window.confirm(S.confirm_new)) {
      choices = [];
      selected = null;
      save();
      draw();
    }
  });
  document.querySelector('[data-action="copy"]').addEventListener("click", function () {
    var area = document.getElementById("record");
    var done = function () { document.getElementById("copied").textContent = S.copied; };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(area.value).then(done, function () {
        area.select();
        document.execCommand("copy");
        done();
      });
    } else {
      area.select();
      document.execCommand("copy");
      done();
    }
  });
  document.querySelector('[data-action="download"]').addEventListener("click", function () {
    var blob = new Blob([recordText()], { type: "text/plain" });
    var link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = "record.txt";
    document.body.appendChild(link);
    link.click();
    document.body.removeChild(link);
  });

  draw();
})();
