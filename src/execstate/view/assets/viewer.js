/* execstate view: the page. Plain JS, no build step, no network but its own server (or its own files).
 *
 * Every string from the records is put into the page with textContent (or as a text node): never innerHTML.
 * The state is the URL's hash: the filters, the sort, the offset and the open cell
 * (#arm=loop-trace&grade=wrong&offset=50&cell=0:17), so a link (the report's tables) opens the list filtered.
 * Two back ends answer the same three questions (list, cell, trace): the server's JSON API, or, in a static
 * export, the data files beside the page (window.ES_STATIC: the index of every cell, scanned here; the cells
 * whole in chunk files loaded on demand).
 */
(function () {
  "use strict";

  var FACETS = ["run", "study", "arm", "kind", "language", "setting", "grade", "category", "band"];
  var STATIC = window.ES_STATIC || null;
  var timings = (window.__esTimings = { renders: 0, lastListMs: null, firstListMs: null });
  var meta = null;
  var current = { listKey: null, cellKey: null };

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        if (k === "text") node.textContent = attrs[k];
        else if (k === "cls") node.className = attrs[k];
        else if (k.slice(0, 2) === "on") node.addEventListener(k.slice(2), attrs[k]);
        else node.setAttribute(k, attrs[k]);
      });
    }
    (children || []).forEach(function (c) {
      if (c === null || c === undefined) return;
      node.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  function readHash() {
    var state = {};
    var text = location.hash.replace(/^#/, "");
    if (!text) return state;
    text.split("&").forEach(function (part) {
      var i = part.indexOf("=");
      if (i > 0) state[decodeURIComponent(part.slice(0, i))] = decodeURIComponent(part.slice(i + 1));
    });
    return state;
  }

  function writeHash(state) {
    var parts = [];
    Object.keys(state).forEach(function (k) {
      if (state[k] !== "" && state[k] !== undefined && state[k] !== null)
        parts.push(encodeURIComponent(k) + "=" + encodeURIComponent(state[k]));
    });
    var hash = parts.length ? "#" + parts.join("&") : "#";
    if (location.hash !== hash && !(hash === "#" && location.hash === "")) location.hash = hash;
    else render();
  }

  function setState(changes, keepOffset) {
    var state = readHash();
    Object.keys(changes).forEach(function (k) {
      state[k] = changes[k];
    });
    if (!keepOffset) delete state.offset;
    writeHash(state);
  }

  function getJSON(path) {
    return fetch(path, { headers: { Accept: "application/json" } }).then(function (r) {
      return r.json().then(function (body) {
        if (!r.ok) throw new Error(body.error || r.statusText);
        return body;
      });
    });
  }

  function query(state, extra) {
    var parts = [];
    FACETS.concat(["case", "sort", "offset", "size"]).forEach(function (k) {
      if (state[k]) parts.push(encodeURIComponent(k) + "=" + encodeURIComponent(state[k]));
    });
    Object.keys(extra || {}).forEach(function (k) {
      parts.push(encodeURIComponent(k) + "=" + encodeURIComponent(extra[k]));
    });
    return parts.join("&");
  }

  /* ---- back ends ---- */

  var server = {
    meta: function () {
      return getJSON("api/meta");
    },
    list: function (state) {
      return getJSON("api/list?" + query(state));
    },
    cell: function (run, cell) {
      return getJSON("api/cell?run=" + run + "&cell=" + cell);
    },
    trace: function (run, cell) {
      return getJSON("api/trace?run=" + run + "&cell=" + cell);
    },
  };

  var chunks = {};
  window.ES_CHUNK = function (name, cells) {
    chunks[name] = cells;
  };

  function loadScript(src) {
    return new Promise(function (resolve, reject) {
      var s = el("script", { src: src });
      s.addEventListener("load", resolve);
      s.addEventListener("error", function () {
        reject(new Error("could not load " + src));
      });
      document.head.appendChild(s);
    });
  }

  var staticBackend = {
    meta: function () {
      return Promise.resolve(STATIC.meta);
    },
    list: function (state) {
      var cols = STATIC.columns;
      var at = {};
      cols.forEach(function (c, i) {
        at[c] = i;
      });
      var rows = STATIC.rows;
      function keep(row, skip) {
        for (var i = 0; i < FACETS.length; i++) {
          var f = FACETS[i];
          if (f !== skip && state[f] && String(row[at[f]]) !== state[f]) return false;
        }
        return !state["case"] || String(row[at.case_id]).indexOf(state["case"]) >= 0;
      }
      var counts = {};
      FACETS.forEach(function (f) {
        var c = (counts[f] = {});
        rows.forEach(function (row) {
          if (keep(row, f)) c[row[at[f]]] = (c[row[at[f]]] || 0) + 1;
        });
      });
      var kept = rows.filter(function (row) {
        return keep(row, null);
      });
      var sort = state.sort || "task";
      var key = { trace: "trace_length", "trace-desc": "trace_length", latency: "latency_s", setting: "setting", status: "status" }[sort];
      if (key) {
        var sign = sort === "trace-desc" || sort === "latency" ? -1 : 1;
        kept = kept
          .map(function (r, i) {
            return [r, i];
          })
          .sort(function (a, b) {
            var x = a[0][at[key]], y = b[0][at[key]];
            if (x === y) return a[1] - b[1];
            if (x === null) return 1;
            if (y === null) return -1;
            return (x < y ? -1 : 1) * sign;
          })
          .map(function (p) {
            return p[0];
          });
      }
      var offset = parseInt(state.offset || "0", 10) || 0;
      var size = STATIC.meta.page_size;
      var page = kept.slice(offset, offset + size).map(function (row) {
        var obj = {};
        cols.forEach(function (c, i) {
          obj[c] = row[i];
        });
        return obj;
      });
      return Promise.resolve({ total: kept.length, offset: offset, rows: page, counts: counts });
    },
    cell: function (run, cell) {
      var name = run + "-" + Math.floor(cell / STATIC.chunk);
      var ready = chunks[name] ? Promise.resolve() : loadScript("data/cells-" + name + ".js");
      return ready.then(function () {
        var found = chunks[name][String(cell)];
        if (!found) throw new Error("no cell " + run + ":" + cell + " in this export");
        return found;
      });
    },
    trace: function (run, cell) {
      return staticBackend.cell(run, cell).then(function (c) {
        return (
          c.trace || {
            available: false,
            reason: "not in this static export: a true trace is recorded by `execstate view` (the server); " +
              "an export holds the traces its run's cache had",
          }
        );
      });
    },
  };

  var api = STATIC ? staticBackend : server;

  /* ---- the list ---- */

  function renderFilters(state, counts) {
    var box = clear(document.getElementById("filters"));
    FACETS.forEach(function (facet) {
      var values = meta.facets[facet] || [];
      if (facet === "run" && values.length < 2) return;
      var select = el("select", {
        "data-facet": facet,
        "aria-label": facet,
        onchange: function (e) {
          var change = {};
          change[facet] = e.target.value;
          timings.start = performance.now();
          setState(change);
        },
      });
      select.appendChild(el("option", { value: "", text: "all" }));
      values.forEach(function (v) {
        var n = (counts[facet] || {})[String(v)] || 0;
        var label = facet === "run" ? meta.facets.runs[v] : v === "" ? "(none)" : String(v);
        var opt = el("option", { value: String(v), text: label + " (" + n + ")", "data-count": String(n) });
        if (state[facet] === String(v)) opt.selected = true;
        select.appendChild(opt);
      });
      box.appendChild(el("label", { cls: "filter" }, [el("span", { text: facet }), select]));
    });
    var caseInput = el("input", {
      type: "search",
      id: "case-filter",
      placeholder: "case id contains",
      value: state["case"] || "",
      onchange: function (e) {
        timings.start = performance.now();
        setState({ case: e.target.value });
      },
    });
    box.appendChild(el("label", { cls: "filter" }, [el("span", { text: "case" }), caseInput]));
    var sort = el("select", {
      "data-sort": "1",
      onchange: function (e) {
        timings.start = performance.now();
        setState({ sort: e.target.value });
      },
    });
    meta.sorts.forEach(function (s) {
      var opt = el("option", { value: s, text: s });
      if ((state.sort || "task") === s) opt.selected = true;
      sort.appendChild(opt);
    });
    box.appendChild(el("label", { cls: "filter" }, [el("span", { text: "sort" }), sort]));
    box.appendChild(el("button", { type: "button", text: "clear filters", onclick: function () { writeHash({}); } }));
  }

  function renderList(state, data) {
    renderFilters(state, data.counts);
    var size = meta.page_size;
    var from = data.total ? data.offset + 1 : 0;
    var to = Math.min(data.offset + size, data.total);
    document.getElementById("total").textContent = data.total + " cells";
    document.getElementById("total").dataset.total = String(data.total);
    var pager = clear(document.getElementById("pager"));
    pager.appendChild(
      el("button", { type: "button", text: "previous",
        onclick: function () { setState({ offset: String(Math.max(0, data.offset - size)) }, true); } })
    );
    if (data.offset <= 0) pager.lastChild.disabled = true;
    pager.appendChild(el("span", { text: " " + from + "-" + to + " of " + data.total + " " }));
    var next = el("button", { type: "button", text: "next",
      onclick: function () { setState({ offset: String(data.offset + size) }, true); } });
    next.disabled = to >= data.total;
    pager.appendChild(next);
    var body = clear(document.querySelector("#cells tbody"));
    data.rows.forEach(function (row) {
      var key = row.run + ":" + row.cell;
      var tr = el("tr", { "data-cell": key, "data-task": row.task_id, cls: "grade-" + row.grade });
      if (state.cell === key) tr.className += " open";
      var link = el("a", { href: "#", text: row.task_id, onclick: function (e) {
        e.preventDefault();
        setState({ cell: key }, true);
      } });
      [link, row.setting, String(row.sample), row.arm, row.kind, row.status, row.category || "",
        row.trace_length === null ? "" : String(row.trace_length), row.latency_s === null ? "" : row.latency_s.toFixed(2),
        row.answer].forEach(function (v, i) {
        tr.appendChild(el("td", { cls: i === 9 ? "answer" : "" }, [i === 9 ? el("span", { title: v, text: v }) : v]));
      });
      body.appendChild(tr);
    });
  }

  /* ---- one cell ---- */

  function section(title, children) {
    return el("section", { cls: "part" }, [el("h3", { text: title })].concat(children));
  }

  function pre(text, cls) {
    return el("pre", { cls: cls || "" }, [text === null || text === undefined ? "" : String(text)]);
  }

  function kv(pairs) {
    var dl = el("dl", { cls: "kv" });
    pairs.forEach(function (p) {
      if (p[1] === null || p[1] === undefined || p[1] === "") return;
      dl.appendChild(el("dt", { text: p[0] }));
      dl.appendChild(el("dd", { text: String(p[1]) }));
    });
    return dl;
  }

  function program(source, marks) {
    var box = el("pre", { cls: "program" });
    var vars = (marks && marks.variables) || [];
    var pattern = vars.length
      ? new RegExp("\\b(" + vars.map(function (v) { return v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }).join("|") + ")\\b", "g")
      : null;
    source.split("\n").forEach(function (line, i) {
      var n = i + 1;
      var row = el("span", { cls: "line", "data-line": String(n) }, [el("span", { cls: "ln", text: String(n) })]);
      if (marks && marks.loop_line === n) row.className += " loop";
      if (marks && marks.count_line === n) row.className += " counted";
      if (pattern) {
        var last = 0;
        line.replace(pattern, function (m, name, at) {
          row.appendChild(document.createTextNode(line.slice(last, at)));
          row.appendChild(el("mark", { cls: "var", text: m }));
          last = at + m.length;
          return m;
        });
        row.appendChild(document.createTextNode(line.slice(last)));
      } else row.appendChild(document.createTextNode(line));
      box.appendChild(row);
      box.appendChild(document.createTextNode("\n"));
    });
    return box;
  }

  function table(headers, rows, rowClass) {
    var t = el("table", { cls: "compare" }, [
      el("thead", null, [el("tr", null, headers.map(function (h) { return el("th", { text: h }); }))]),
    ]);
    var body = el("tbody");
    rows.forEach(function (r, i) {
      body.appendChild(el("tr", { cls: rowClass ? rowClass(i) : "" }, r.map(function (v) {
        return el("td", null, [v === null || v === undefined ? "" : String(v)]);
      })));
    });
    t.appendChild(body);
    return t;
  }

  function comparePart(c) {
    if (c.kind === "state") {
      if (!c.rows.length)
        return [el("p", { text: c.parsed ? "The answer is not an object with fields." : "The answer does not parse as JSON." }),
          kv([["oracle", c.want], ["answer", c.got]])];
      return [table(["field", "oracle", "answer", ""], c.rows.map(function (r) {
        return [r.key, r.want, r.got, r.same ? "same" : "differs"];
      }), function (i) { return c.rows[i].same ? "same" : "wrong"; })];
    }
    if (c.kind === "trace") {
      var rows = c.rows.map(function (r) {
        return [String(r.step), r.want, r.got, r.same ? "right" : (r.step === c.first_wrong ? "first wrong step" : "wrong")];
      });
      var note = c.first_wrong === null ? "Every step is right." : "First wrong step: " + c.first_wrong +
        " (longest correct prefix " + c.first_wrong + ").";
      return [el("p", { cls: "first-wrong", text: note }),
        table(["step", "oracle", "answer", ""], rows, function (i) {
          var r = c.rows[i];
          return r.same ? "same" : (r.step === c.first_wrong ? "wrong first" : "wrong");
        })];
    }
    if (c.kind === "count") {
      return [kv([["line", c.line + (c.text ? ": " + c.text : "")], ["true count", c.want], ["answered", c.got],
        ["condition line", c.branch_line], ["condition evaluated", c.evaluated], ["", c.same ? "same" : "differs"]])];
    }
    return [table(["line", "oracle", "answer", ""], c.rows.map(function (r) {
      return [String(r.line), r.want, r.got, r.same ? "same" : "differs"];
    }), function (i) { return c.rows[i].same ? "same" : "wrong"; })];
  }

  function cellLinks(cells, here) {
    var list = el("ul", { cls: "others" });
    cells.forEach(function (c) {
      var key = here.run + ":" + c.cell;
      var item = el("li", { cls: "grade-" + c.grade });
      var label = c.task_id + " · " + c.setting + " · sample " + c.sample + " · " + c.status;
      if (c.cell === here.cell) item.appendChild(el("strong", { text: label + " (this cell)" }));
      else item.appendChild(el("a", { href: "#", "data-goto": key, text: label, onclick: function (e) {
        e.preventDefault();
        setState({ cell: key }, true);
      } }));
      list.appendChild(item);
    });
    return list;
  }

  function tracePart(c, box) {
    var button = el("button", { type: "button", id: "record-trace", text: "Show the true trace" });
    box.appendChild(button);
    button.addEventListener("click", function () {
      button.disabled = true;
      button.textContent = "recording...";
      api.trace(c.run, c.cell).then(function (t) {
        button.remove();
        showTrace(c, t, box);
      }).catch(function (err) {
        button.textContent = "failed: " + err.message;
      });
    });
  }

  function showTrace(c, t, box) {
    var wrap = el("div", { id: "true-trace" });
    box.appendChild(wrap);
    if (!t.available) {
      wrap.appendChild(el("p", { cls: "note", text: "No true trace: " + t.reason }));
      return;
    }
    var claims = null;
    if (c.task.family === "trace") {
      try { claims = JSON.parse(c.grade.answer); } catch (e) { claims = null; }
      if (!Array.isArray(claims)) claims = null;
    }
    wrap.appendChild(el("p", { cls: "note", text: t.events + " steps" + (t.end === "capped" ? " (stopped there: the cap)" : "") +
      "; run ended: " + t.end + (t.checkpoint_step !== null ? " (the last step is the checkpoint)" : "") +
      (t.loop_line ? "; loop header line " + t.loop_line : "") }));
    var headers = ["step", "line", "function", "variables", "iteration"];
    if (claims) headers.push("claimed state");
    var tbl = el("table", { cls: "trace" }, [el("thead", null, [el("tr", null, headers.map(function (h) { return el("th", { text: h }); }))])]);
    var body = el("tbody");
    t.steps.forEach(function (s, i) {
      if (i > 0 && s.n > t.steps[i - 1].n + 1) {
        var gap = el("tr", { cls: "gap" }, [el("td", { colspan: String(headers.length),
          text: "... " + (s.n - t.steps[i - 1].n - 1) + " steps not kept (a trace keeps its first and last " + (t.cap / 2) + ") ..." })]);
        body.appendChild(gap);
      }
      var names = Object.keys(s.vars).map(function (n) { return n + "=" + s.vars[n]; }).join(", ");
      var cls = [];
      if (i === t.checkpoint_step) cls.push("checkpoint");
      if (s.iteration !== undefined) cls.push("iteration");
      var cells = [String(s.n), String(s.line), s.fn, names, s.iteration === undefined ? "" : String(s.iteration)];
      if (claims) {
        var claim = s.iteration !== undefined && s.iteration < claims.length ? JSON.stringify(claims[s.iteration]) : "";
        cells.push(claim);
        if (claim && c.compare.rows[s.iteration] && !c.compare.rows[s.iteration].same) cls.push("claim-wrong");
      }
      body.appendChild(el("tr", { cls: cls.join(" "), "data-step": String(s.n), "data-iteration": s.iteration === undefined ? "" : String(s.iteration) }, cells.map(function (v) { return el("td", null, [v]); })));
    });
    tbl.appendChild(body);
    wrap.appendChild(tbl);
    if (t.output) wrap.appendChild(el("details", null, [el("summary", { text: "program output (" + t.output_chars + " characters)" }), pre(t.output)]));
  }

  function renderCell(c) {
    var panel = clear(document.getElementById("cell"));
    panel.hidden = false;
    var t = c.task, r = c.response, g = c.grade;
    panel.appendChild(el("div", { cls: "cell-head" }, [
      el("h2", { id: "cell-title", text: t.task_id + " · " + g.setting + " · sample " + g.sample }),
      el("button", { type: "button", text: "close", onclick: function () { setState({ cell: "" }, true); } }),
    ]));
    panel.appendChild(kv([["study", t.study], ["arm", t.arm + " (" + t.arm_label + "): " + t.description], ["kind", t.kind],
      ["language", t.language], ["trace length", t.metrics.trace_length], ["band", t.band],
      ["checkpoint", t.highlight.checkpoint ? t.highlight.checkpoint + (t.highlight.k !== null && t.highlight.k !== undefined ? " k=" + t.highlight.k : "") : ""],
      ["projected variables", t.highlight.variables.join(", ")]]));
    panel.appendChild(section("Grade", [el("p", { id: "grade-status", cls: "grade-" + g.group, text: g.status + " (" + g.group + ")" }),
      kv([["rule", g.rule], ["reason", g.reason], ["error class", g.category], ["envelope valid", g.envelope_valid],
        ["longest correct prefix", g.prefix]])]));
    panel.appendChild(section("Answer against the oracle", comparePart(c.compare)));
    panel.appendChild(section("Program", [program(t.source, t.highlight)]));
    panel.appendChild(section("Input", [pre(t.input, "input")]));
    var answer = [pre(r ? r.text : "(no response)", "answer-text")];
    if (r && r.reasoning) answer.push(el("details", { open: "open" }, [el("summary", { text: "reasoning" }), pre(r.reasoning, "reasoning")]));
    answer.push(kv([["extracted answer", g.answer], ["oracle", t.oracle]]));
    panel.appendChild(section("The model's answer", answer));
    if (r) {
      var u = r.usage || {};
      panel.appendChild(section("Response", [kv([["status", r.status], ["provider", r.provider], ["model", r.model],
        ["served model", r.served_model], ["finish reason", r.finish_reason], ["latency (s)", r.latency_s],
        ["prompt tokens", u.prompt_tokens], ["completion tokens", u.completion_tokens], ["reasoning tokens", u.reasoning_tokens],
        ["cache read tokens", u.cache_read_tokens], ["cost", r.cost === null ? "" : r.cost.toFixed(6)],
        ["cached", r.cached ? "yes (response cache)" : "no"], ["batch", r.batch_id || "no (live request)"],
        ["attempts", r.attempts], ["errors", (r.errors || []).join("\n")], ["pipeline check", r.pipeline_check ? "yes" : ""]])]));
    }
    var prompt = el("details", { cls: "prompt" }, [el("summary", { text: "the prompt exactly as sent" })]);
    t.prompt.forEach(function (m) {
      prompt.appendChild(el("h4", { text: m.role }));
      prompt.appendChild(pre(m.content, "prompt-" + m.role));
    });
    panel.appendChild(section("Prompt", [prompt]));
    var traceBox = section("True trace", []);
    panel.appendChild(traceBox);
    tracePart(c, traceBox);
    panel.appendChild(section("This case's other cells", [cellLinks(c.others, c)]));
    if (c.original) {
      var o = c.original;
      var parts = [el("p", { id: "original-note", text: "This task is a " + o.relation + " " + o.case_id + "." })];
      if (o.source !== null) {
        parts.push(el("div", { cls: "side" }, [
          el("div", null, [el("h4", { text: "this program" }), pre(t.source, "this-source")]),
          el("div", null, [el("h4", { text: "original " + (o.task_id || o.case_id) }), pre(o.source, "original-source")]),
        ]));
      }
      parts.push(cellLinks(o.cells, { run: c.run, cell: -1 }));
      panel.appendChild(section("Original", parts));
    }
    panel.dataset.cell = c.run + ":" + c.cell;
  }

  /* ---- the loop ---- */

  function showError(err) {
    var box = document.getElementById("error");
    box.hidden = false;
    box.textContent = String(err.message || err);
  }

  function render() {
    var state = readHash();
    document.getElementById("error").hidden = true;
    var listKey = query(state);
    var jobs = [];
    if (listKey !== current.listKey) {
      var started = timings.start || performance.now();
      jobs.push(api.list(state).then(function (data) {
        current.listKey = listKey;
        renderList(state, data);
        var ms = performance.now() - started;
        timings.lastListMs = ms;
        if (timings.firstListMs === null) timings.firstListMs = performance.now();
        timings.start = null;
      }));
    }
    var cellKey = state.cell || "";
    if (cellKey !== current.cellKey) {
      if (!cellKey) {
        current.cellKey = cellKey;
        clear(document.getElementById("cell")).hidden = true;
      } else {
        var parts = cellKey.split(":");
        jobs.push(api.cell(parseInt(parts[0], 10), parseInt(parts[1], 10)).then(function (c) {
          current.cellKey = cellKey;
          renderCell(c);
        }));
      }
    }
    document.body.dataset.state = "loading";
    Promise.all(jobs).then(function () {
      timings.renders += 1;
      document.body.dataset.renders = String(timings.renders);
      document.body.dataset.state = "ready";
    }).catch(function (err) {
      showError(err);
      timings.renders += 1;
      document.body.dataset.renders = String(timings.renders);
      document.body.dataset.state = "error";
    });
  }

  api.meta().then(function (m) {
    meta = m;
    document.getElementById("runs").textContent = m.runs.map(function (r) { return r.name; }).join(", ");
    window.addEventListener("hashchange", render);
    render();
  }).catch(showError);
})();
