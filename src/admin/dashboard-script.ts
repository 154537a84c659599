/**
 * The dashboard's script (static data, plain ES2020 for any current browser, no build step).
 * Reads GET /admin/sessions (totals + table), GET /admin/report (the savings ledger's table, all
 * time), GET /admin/sessions/:id (calls_log → the chart) and GET /admin/sessions/:id/cache (the
 * cache-breaks panel of the same session), toggles the kill switch with POST …/disable|enable. Every value goes into the page
 * through textContent or SVG attributes, never innerHTML: session ids and model names come
 * from clients. Display formats (the test repeats them): USD `$` + 4 decimals, ratios as a
 * percent with 1 decimal (a negative USD figure keeps its sign: `$-0.0212`, the sessions table's
 * negative net cell in red), `—` for null, integers as plain digits, the ledger's ratio as `N.N×`
 * and its latency as `N ms`.
 */
export const DASHBOARD_JS = `"use strict";
(function () {
  var KEY = "sluice.admin_token";
  var base = location.pathname.replace(/\\/dashboard\\/?$/, "");
  var $ = function (id) { return document.getElementById(id); };
  var chosen = null;

  function fmtUsd(v) { return "$" + Number(v).toFixed(4); }
  function fmtRatio(v) { return v === null || v === undefined ? "\\u2014" : (v * 100).toFixed(1) + "%"; }
  function fmtInt(v) { return String(Math.round(Number(v))); }
  function fmtTime(ms) { return ms === null ? "\\u2014" : new Date(ms).toISOString().replace("T", " ").slice(0, 19) + "Z"; }
  function el(tag, text, cls) { var e = document.createElement(tag); if (text !== undefined) e.textContent = text; if (cls) e.className = cls; return e; }
  function status(text, state) { $("status").textContent = text; $("status").setAttribute("data-state", state); }

  function api(path, method) {
    var token = sessionStorage.getItem(KEY);
    return fetch(base + path, { method: method || "GET", headers: { authorization: "Bearer " + token }, cache: "no-store" }).then(function (r) {
      if (r.status === 401 || r.status === 400) { signOut("The token was refused."); throw new Error("unauthorized"); }
      if (!r.ok) return r.json().then(function (b) { throw new Error((b && b.error && b.error.message) || ("HTTP " + r.status)); });
      return r.json();
    });
  }

  function signOut(message) {
    sessionStorage.removeItem(KEY);
    $("main").hidden = true; $("login").hidden = false; $("refresh").hidden = true; $("signout").hidden = true;
    $("login-error").textContent = message || "";
    status("not signed in", "idle");
  }

  function renderTotals(t) {
    $("total-ledger-saved").textContent = fmtUsd(t.ledger_saved_usd);
    $("headline").setAttribute("data-net", t.ledger_saved_usd < 0 ? "negative" : "positive");
    $("total-usd-saved").textContent = fmtUsd(t.usd_saved);
    $("total-cache-hit").textContent = fmtRatio(t.cache_hit_ratio);
    $("total-fail-open").textContent = fmtInt(t.fail_open);
    $("total-requests").textContent = fmtInt(t.requests);
    $("total-tokens-saved").textContent = fmtInt(t.tokens_saved);
    $("total-sessions").textContent = fmtInt(t.sessions);
  }

  function renderReport(rows) {
    var body = $("report").tBodies[0];
    body.replaceChildren();
    rows.forEach(function (r) {
      var tr = el("tr"); tr.setAttribute("data-mode", r.mode);
      [r.mode, fmtRatio(r.saved_share), fmtUsd(r.saved_usd), fmtUsd(r.without_usd), fmtUsd(r.engine_cost_usd), fmtUsd(r.worst_case_loss_usd), fmtUsd(r.balance_usd),
        r.ratio === null ? "\u2014" : r.ratio.toFixed(1) + "\u00d7", r.engine_wait_ms === null ? "\u2014" : Math.round(r.engine_wait_ms) + " ms",
        fmtRatio(r.engine_wait_share), fmtRatio(r.refetched_share), fmtRatio(r.mentioned_share), fmtRatio(r.deterministic_share)]
        .forEach(function (v) { tr.appendChild(el("td", v)); });
      body.appendChild(tr);
    });
    if (rows.length === 0) { var tr0 = el("tr"); var td0 = el("td", "no priced calls yet"); td0.colSpan = 13; tr0.appendChild(td0); body.appendChild(tr0); }
  }

  function renderSessions(list) {
    var body = $("sessions").tBodies[0];
    body.replaceChildren();
    var select = $("chart-session");
    select.replaceChildren();
    list.forEach(function (s) {
      var tr = el("tr", undefined, s.disabled ? "disabled" : "");
      tr.setAttribute("data-session", s.id);
      [s.id, s.label || "\\u2014", s.provider || "\\u2014", s.model || "\\u2014", fmtInt(s.turns), fmtInt(s.calls), fmtInt(s.tokens_saved), fmtUsd(s.net_usd_saved), fmtUsd(s.usd_saved),
        fmtRatio(s.cache_hit_ratio), fmtInt(s.fail_open), s.last_tier || "\\u2014", fmtTime(s.last_activity_ms), s.disabled ? "disabled" : "enabled"]
        .forEach(function (v) { tr.appendChild(el("td", v)); });
      if (s.net_usd_saved < 0) tr.cells[7].className = "net-negative";
      var btn = el("button", s.disabled ? "Enable" : "Disable");
      btn.type = "button";
      btn.addEventListener("click", function () {
        api("/sessions/" + encodeURIComponent(s.id) + (s.disabled ? "/enable" : "/disable"), "POST").then(load, fail);
      });
      var td = el("td"); td.appendChild(btn); tr.appendChild(td);
      body.appendChild(tr);
      var opt = el("option", s.label || s.id); opt.value = s.id; select.appendChild(opt);
    });
    if (list.length === 0) { var tr0 = el("tr"); var td0 = el("td", "no sessions yet"); td0.colSpan = 15; tr0.appendChild(td0); body.appendChild(tr0); }
    if (chosen === null || !list.some(function (s) { return s.id === chosen; })) chosen = list.length ? list[0].id : null;
    if (chosen !== null) select.value = chosen;
  }

  function renderChart(calls) {
    var box = $("chart");
    box.replaceChildren();
    box.setAttribute("data-calls", String(calls.length));
    if (calls.length === 0) { box.appendChild(el("p", "no calls recorded for this session")); return; }
    var NS = "http://www.w3.org/2000/svg", W = 760, H = 260, L = 64, R = 12, T = 12, B = 28;
    var max = Math.max.apply(null, calls.map(function (c) { return Math.max(c.tokens_original, c.tokens_sent); }).concat([1]));
    var x = function (i) { return L + (calls.length === 1 ? (W - L - R) / 2 : i * (W - L - R) / (calls.length - 1)); };
    var y = function (v) { return T + (H - T - B) * (1 - v / max); };
    var svg = document.createElementNS(NS, "svg");
    svg.setAttribute("viewBox", "0 0 " + W + " " + H); svg.setAttribute("width", String(W)); svg.setAttribute("height", String(H));
    svg.setAttribute("role", "img"); svg.setAttribute("aria-label", "tokens sent vs original per call");
    function add(tag, attrs, text) { var e = document.createElementNS(NS, tag); Object.keys(attrs).forEach(function (k) { e.setAttribute(k, String(attrs[k])); }); if (text !== undefined) e.textContent = text; svg.appendChild(e); return e; }
    add("line", { x1: L, y1: H - B, x2: W - R, y2: H - B, "class": "axis" });
    add("line", { x1: L, y1: T, x2: L, y2: H - B, "class": "axis" });
    add("text", { x: L - 6, y: T + 4, "text-anchor": "end" }, fmtInt(max));
    add("text", { x: L - 6, y: H - B, "text-anchor": "end" }, "0");
    add("text", { x: L, y: H - 8 }, "call " + calls[0].seq);
    add("text", { x: W - R, y: H - 8, "text-anchor": "end" }, "call " + calls[calls.length - 1].seq);
    ["original", "sent"].forEach(function (k) {
      var field = "tokens_" + k;
      add("polyline", { points: calls.map(function (c, i) { return x(i).toFixed(1) + "," + y(c[field]).toFixed(1); }).join(" "), "class": k });
      calls.forEach(function (c, i) {
        var dot = add("circle", { cx: x(i).toFixed(1), cy: y(c[field]).toFixed(1), r: 3, "class": k, "data-seq": c.seq, "data-value": c[field] });
        var t = document.createElementNS(NS, "title"); t.textContent = "call " + c.seq + ": " + k + " " + fmtInt(c[field]) + " tokens"; dot.appendChild(t);
      });
    });
    box.appendChild(svg);
  }

  function where(e) {
    if (e.byte_offset !== null) return (e.offset_exact ? "byte " : "\u2248 byte ") + fmtInt(e.byte_offset) + " of the system prompt";
    if (e.tools) return "tools +" + e.tools.added + " \u2212" + e.tools.removed + " changed " + e.tools.changed + " reordered " + e.tools.reordered;
    if (e.members && e.members.length) return "members " + e.members.join(", ");
    if (e.message_index !== null) return "message " + fmtInt(e.message_index);
    if (e.cause === "ttl_expired") return "gap " + fmtInt(e.gap_ms / 1000) + " s";
    return "\u2014";
  }

  function renderCache(r) {
    var causes = $("cache-causes").tBodies[0], events = $("cache-events").tBodies[0];
    causes.replaceChildren(); events.replaceChildren();
    if (r === null) { $("cache-summary").textContent = "\u2014"; return; }
    $("cache-summary").textContent = fmtInt(r.misses) + " misses in " + fmtInt(r.pairs_checked) + " call pairs checked against the provider's usage; Sluice's own steps cost " + fmtUsd(r.sluice_step_cost_usd);
    Object.keys(r.causes).forEach(function (k) {
      var c = r.causes[k];
      if (c.count === 0) return;
      var tr = el("tr"); tr.setAttribute("data-cause", k);
      [k, fmtInt(c.count), fmtInt(c.tokens)].forEach(function (v) { tr.appendChild(el("td", v)); });
      causes.appendChild(tr);
    });
    r.events.slice().reverse().forEach(function (e) {
      var tr = el("tr"); tr.setAttribute("data-call", String(e.call));
      [fmtInt(e.call), e.cause, where(e), fmtInt(e.tokens_affected), e.cost_usd === null ? "\u2014" : fmtUsd(e.cost_usd), e.confirmed ? "yes" : "no usage"].forEach(function (v) { tr.appendChild(el("td", v)); });
      events.appendChild(tr);
    });
  }

  function loadChart() {
    if (chosen === null) { renderChart([]); renderCache(null); return Promise.resolve(); }
    var id = encodeURIComponent(chosen);
    var soft = function (render, empty) { return function (e) { if (e.message === "unauthorized") throw e; render(empty); }; };
    return Promise.all([
      api("/sessions/" + id).then(function (d) { renderChart(d.session.calls_log); }, soft(renderChart, [])),
      api("/sessions/" + id + "/cache").then(renderCache, soft(renderCache, null)),
    ]);
  }

  function load() {
    status("loading\\u2026", "loading");
    return api("/sessions").then(function (d) {
      renderTotals(d.totals);
      renderSessions(d.sessions);
      return api("/report");
    }).then(function (r) {
      renderReport(r.rows);
      return loadChart();
    }).then(function () { status("updated " + fmtTime(Date.now()), "loaded"); }, fail);
  }

  function fail(e) { if (e && e.message !== "unauthorized") status("error: " + e.message, "error"); }

  function signedIn() {
    $("login").hidden = true; $("main").hidden = false; $("refresh").hidden = false; $("signout").hidden = false;
    return load();
  }

  $("login-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    sessionStorage.setItem(KEY, $("token").value.trim());
    $("token").value = "";
    $("login-error").textContent = "";
    signedIn();
  });
  $("signout").addEventListener("click", function () { signOut(""); });
  $("refresh").addEventListener("click", function () { load(); });
  $("chart-session").addEventListener("change", function () {
    chosen = $("chart-session").value;
    status("loading\\u2026", "loading");
    loadChart().then(function () { status("updated " + fmtTime(Date.now()), "loaded"); }, fail);
  });
  if (sessionStorage.getItem(KEY)) signedIn();
})();
`;
