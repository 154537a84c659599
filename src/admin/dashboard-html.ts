/**
 * The dashboard page (static data: one HTML document, no build step; DESIGN §9). It holds no
 * session data: the script (dashboard-script.ts, served at /admin/dashboard.js) asks for the
 * admin token in a password field, keeps it in sessionStorage (this tab only, gone when the tab
 * closes; never in the URL, so never in history or access logs) and reads everything from the
 * bearer-protected admin JSON API. Element ids are the test's contract. The page leads with the
 * net saving (the savings ledger: after cache writes), the gross figure beside it, smaller and
 * labelled as before cache writes; the sessions table the same way (Net USD saved, then Gross).
 */

/** Content-Security-Policy of the page: only our own script and style, no inline code, no framing. */
export const DASHBOARD_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";

export const DASHBOARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Sluice — operator dashboard</title>
<link rel="stylesheet" href="dashboard.css">
</head>
<body>
<header><h1>Sluice</h1><span id="status" data-state="idle">not signed in</span>
<button id="refresh" type="button" hidden>Refresh</button><button id="signout" type="button" hidden>Sign out</button></header>

<section id="login">
  <form id="login-form">
    <label for="token">Admin token</label>
    <input id="token" type="password" autocomplete="off" required>
    <button type="submit">Sign in</button>
  </form>
  <p id="login-error" role="alert"></p>
</section>

<main id="main" hidden>
  <section id="headline" class="headline" aria-label="Savings">
    <div class="figure net"><h2>Net saved</h2><p id="total-ledger-saved">—</p>
      <p class="note">Input cost without Sluice minus input cost with it, from the providers' usage, after the cache writes Sluice's steps caused (the savings ledger).</p></div>
    <div class="figure gross"><h2>Gross saved</h2><p id="total-usd-saved">—</p>
      <p class="note">Tokens removed × the input price, before cache writes: an upper bound, not what was billed less.</p></div>
  </section>
  <section class="cards">
    <div class="card"><h2>Cache hit ratio</h2><p id="total-cache-hit">—</p></div>
    <div class="card"><h2>Fail-open</h2><p id="total-fail-open">—</p></div>
    <div class="card"><h2>Requests</h2><p id="total-requests">—</p></div>
    <div class="card"><h2>Tokens saved</h2><p id="total-tokens-saved">—</p></div>
    <div class="card"><h2>Sessions</h2><p id="total-sessions">—</p></div>
  </section>

  <section>
    <h2>Savings ledger (all time)</h2>
    <table id="report">
      <thead><tr><th>Mode</th><th>Saving</th><th>Net USD saved</th><th>Modelled input cost</th><th>Engine cost</th><th>Worst-case loss</th><th>Balance</th><th>Ratio</th><th>Engine latency</th><th>Requests that waited</th><th>Re-fetched</th><th>Re-mentioned</th><th>Deterministic</th></tr></thead>
      <tbody></tbody>
    </table>
    <p class="legend">Input cost without Sluice is the clients' bodies priced with each session's own cache behaviour; with Sluice is the provider's reported usage (measure mode: what would have been billed). Saving is net of the cache writes steps cause. Worst-case loss: every removed result re-sent once. Percentages of removals: re-fetched (same tool call again), re-mentioned (same file named again), from deterministic tools.</p>
  </section>

  <section>
    <h2>Sessions</h2>
    <table id="sessions">
      <thead><tr><th>Session</th><th>Conversation</th><th>Provider</th><th>Model</th><th>Turns</th><th>Calls</th><th>Tokens saved</th><th>Net USD saved</th><th>Gross USD saved (before cache writes)</th><th>Cache hit</th><th>Fail-open</th><th>Last tier</th><th>Last activity</th><th>State</th><th></th></tr></thead>
      <tbody></tbody>
    </table>
  </section>

  <section>
    <h2>Tokens per call <select id="chart-session" aria-label="Session"></select></h2>
    <p class="legend"><span class="sw original"></span>original (as the client sent) <span class="sw sent"></span>sent (after compaction)</p>
    <div id="chart"></div>
  </section>

  <section>
    <h2>Cache breaks (same session)</h2>
    <p id="cache-summary">\u2014</p>
    <table id="cache-causes"><thead><tr><th>Cause</th><th>Events</th><th>Tokens affected</th></tr></thead><tbody></tbody></table>
    <table id="cache-events"><thead><tr><th>Call</th><th>Cause</th><th>Where</th><th>Tokens affected</th><th>Cost</th><th>Confirmed</th></tr></thead><tbody></tbody></table>
  </section>
</main>
<script src="dashboard.js"></script>
</body>
</html>
`;

export const DASHBOARD_CSS = `body{font:14px/1.4 system-ui,sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{display:flex;gap:1em;align-items:center;padding:.6em 1.2em;background:#1d2330;color:#fff}
header h1{font-size:1.2em;margin:0}#status{flex:1;opacity:.8}
section{margin:1em 1.2em}.cards{display:flex;flex-wrap:wrap;gap:.8em}
.card{background:#fff;border:1px solid #dde1e7;border-radius:6px;padding:.4em 1em;min-width:10em}
.card h2{font-size:.8em;font-weight:600;text-transform:uppercase;color:#5b6474;margin:.3em 0}
.card p{font-size:1.5em;margin:.1em 0 .3em}
.headline{display:flex;flex-wrap:wrap;align-items:flex-end;gap:2em;background:#fff;border:1px solid #dde1e7;border-radius:6px;padding:.6em 1.2em}
.headline h2{font-size:.85em;font-weight:600;text-transform:uppercase;color:#5b6474;margin:.3em 0}
.headline .figure p{margin:.1em 0}.headline .note{font-size:.8em;color:#5b6474;max-width:28em}
.headline .net p:first-of-type{font-size:2.6em;font-weight:700;color:#116329}.headline[data-net=negative] .net p:first-of-type{color:#b3261e}.headline .gross p:first-of-type{font-size:1.4em;color:#5b6474}
table{border-collapse:collapse;background:#fff;width:100%}th,td{border-bottom:1px solid #e4e7ec;padding:.3em .5em;text-align:right}
th:first-child,td:first-child{text-align:left;font-family:ui-monospace,monospace;max-width:22em;overflow:hidden;text-overflow:ellipsis}
td.net-negative{color:#b3261e}tr.disabled td{color:#9aa1ad}#cache-causes,#cache-events{margin-top:.6em}#login-error{color:#b3261e}
.legend .sw{display:inline-block;width:1em;height:.6em;margin:0 .3em 0 1em}.sw.original{background:#9aa1ad}.sw.sent{background:#1f6feb}
svg .original{stroke:#9aa1ad;fill:none;stroke-width:2}svg .sent{stroke:#1f6feb;fill:none;stroke-width:2}
svg circle.original{fill:#9aa1ad}svg circle.sent{fill:#1f6feb}svg text{font-size:11px;fill:#5b6474}svg .axis{stroke:#c4c9d2}
`;
