/**
 * The dashboard's one HTML page: styles and script inline, no external asset, no CDN, so it works
 * on an air-gapped cluster and through `kubectl port-forward`. The script polls the snapshot once a
 * second and redraws three sections — controllers, caches, objects not converged — computing adds
 * per second from two consecutive snapshots. Invariant: every value from the cluster is inserted as
 * text (`textContent`), never as markup, so an object's name or an error message cannot inject HTML.
 */

/** The page, polling `statePath` (an absolute path on the same server). */
export function dashboardPage(statePath: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Converge dashboard</title>
<link rel="icon" href="data:,">
<style>
  body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #1d2433; background: #f7f8fa; }
  h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
  h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
  #status { color: #5b6578; }
  #status.down { color: #b42318; font-weight: 600; }
  table { border-collapse: collapse; background: #fff; box-shadow: 0 1px 2px #0002; }
  th, td { padding: .35rem .7rem; text-align: left; border-bottom: 1px solid #e4e7ec; vertical-align: top; }
  th { background: #eef1f5; font-weight: 600; }
  td.num { text-align: right; font-variant-numeric: tabular-nums; }
  .bad { color: #b42318; font-weight: 600; }
  .ok { color: #067647; }
  .hist { display: flex; align-items: flex-end; gap: 1px; height: 24px; }
  .hist span { width: 6px; background: #528bff; min-height: 1px; }
  ul.objects { list-style: none; padding: 0; }
  ul.objects li { background: #fff; box-shadow: 0 1px 2px #0002; margin: 0 0 .5rem; padding: .5rem .75rem; }
  .summary { font-weight: 600; }
  pre { white-space: pre-wrap; font-size: 12px; background: #f2f4f7; padding: .5rem; }
</style>
</head>
<body>
<h1>Converge dashboard</h1>
<div id="status">connecting…</div>
<h2>Controllers</h2>
<table id="controllers"><thead><tr>
  <th>Controller</th><th>Kind</th><th>Queue depth</th><th>Adds/s</th><th>In flight</th><th>Succeeded</th>
  <th>Requeued</th><th>Errors</th><th>Reconcile latency</th><th>Last errors</th>
</tr></thead><tbody></tbody></table>
<h2>Caches</h2>
<table id="kinds"><thead><tr>
  <th>Kind</th><th>API version</th><th>Synced</th><th>Watch</th><th>Objects</th><th>Reconnects</th><th>Relists</th><th>Last error</th>
</tr></thead><tbody></tbody></table>
<h2>Not converged</h2>
<div id="none">…</div>
<ul class="objects" id="not-converged"></ul>
<script>
"use strict";
const STATE = ${JSON.stringify(statePath)};
let previous;

function el(tag, props, ...children) {
  const e = document.createElement(tag);
  Object.assign(e, props);
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}
const num = (v) => el('td', { className: 'num' }, v);

/** Latency buckets as bars (per-bucket counts), with the bucket that holds the median named. */
function histogram(buckets) {
  const box = el('div', { className: 'hist' });
  const total = buckets.length ? buckets[buckets.length - 1].count : 0;
  let below = 0;
  let median = '';
  for (const b of buckets) {
    const n = b.count - below;
    below = b.count;
    const bar = el('span', { title: 'le ' + b.le + 's: ' + n });
    bar.style.height = total ? Math.max(1, Math.round((24 * n) / total)) + 'px' : '1px';
    box.append(bar);
    if (!median && total && b.count >= total / 2) median = b.le;
  }
  return el('td', {}, box, total ? 'p50 ≤ ' + median + ' s (' + total + ')' : 'no reconciles yet');
}

function drawControllers(s, dt) {
  const body = document.querySelector('#controllers tbody');
  body.replaceChildren(...s.controllers.map((c) => {
    const before = previous && previous.controllers.find((p) => p.name === c.name);
    const rate = before && dt > 0 ? ((c.addsTotal - before.addsTotal) / dt).toFixed(1) : '–';
    const errors = el('td', { className: c.errors > 0 ? 'num bad' : 'num' }, c.errors);
    const last = el('td', {}, ...c.lastErrors.map((e) => el('div', { className: 'bad' }, e.request + ': ' + (e.reason ? e.reason + ': ' : '') + e.message)));
    const row = el('tr', {},
      el('td', {}, c.name), el('td', {}, c.kind ?? ''), num(c.queueDepth), num(rate), num(c.inFlight + ' / ' + c.maxWorkers),
      num(c.reconciles.success ?? 0), num(c.reconciles.requeue_after ?? 0), errors, histogram(c.latency), last);
    row.dataset.controller = c.name;
    return row;
  }));
}

function drawKinds(s) {
  document.querySelector('#kinds tbody').replaceChildren(...s.kinds.map((k) => el('tr', {},
    el('td', {}, k.kind), el('td', {}, k.apiVersion),
    el('td', { className: k.synced ? 'ok' : 'bad' }, k.synced ? 'synced' : 'syncing'),
    el('td', {}, k.phase), num(k.objects), num(k.reconnects), num(k.relists), el('td', { className: 'bad' }, k.lastError ?? ''))));
}

function drawNotConverged(s) {
  document.getElementById('none').textContent = s.notConverged.length === 0 ? 'Everything is converged.'
    : s.notConverged.length + ' object(s) not converged' + (s.truncated ? ' (showing the first ones)' : '') + ':';
  document.getElementById('not-converged').replaceChildren(...s.notConverged.map((o) => el('li', {},
    el('div', { className: 'summary' }, o.report.summary),
    el('div', {}, 'signs: ' + o.why.join(', ')),
    el('details', {}, el('summary', {}, 'explain'), el('pre', {}, JSON.stringify(o.report, null, 2))))));
}

/** The snapshot, or undefined (said on the page) when the manager cannot be reached. */
async function fetchState(status) {
  try {
    const res = await fetch(STATE, { cache: 'no-store' });
    if (!res.ok) throw new Error('HTTP ' + res.status);
    return await res.json();
  } catch (err) {
    status.className = 'down';
    status.textContent = 'cannot reach the manager (' + err.message + '); retrying';
    return undefined;
  }
}

async function poll() {
  const status = document.getElementById('status');
  const s = await fetchState(status);
  if (s) {
    const dt = previous ? (Date.parse(s.at) - Date.parse(previous.at)) / 1000 : 0;
    drawControllers(s, dt);
    drawKinds(s);
    drawNotConverged(s);
    previous = s;
    status.className = '';
    status.textContent = 'live · updated ' + new Date(s.at).toLocaleTimeString();
  }
  setTimeout(poll, 1000);
}
poll();
</script>
</body>
</html>
`;
}
