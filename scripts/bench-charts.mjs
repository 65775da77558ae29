// Draws the benchmark charts: for every bench/results/<name>.json a benchmark wrote, one SVG per chart
// it names, bench/charts/<name>-<n>.svg (horizontal bars, the value at each bar's end, an optional
// reference line such as a goal, and the machine and date underneath). No dependencies, and no number
// that is not in the JSON, so the charts in BENCHMARKS.md can only show what a run measured.
// Run: node scripts/bench-charts.mjs   (npm run bench runs it after the benchmarks)
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const RESULTS = 'bench/results';
const CHARTS = 'bench/charts';
const WIDTH = 760;
const LABEL_W = 330;
const BAR_H = 22;
const GAP = 8;
const COLORS = ['#4c78a8', '#f58518', '#54a24b', '#b279a2', '#e45756', '#72b7b2', '#9d755d'];

const escape = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const fmt = (v) => (v >= 100 ? Math.round(v).toLocaleString('en-US') : v >= 10 ? v.toFixed(1) : v.toFixed(2));

/** One chart as an SVG document. */
export function chartSvg(chart, footer) {
  const top = 34;
  const plotW = WIDTH - LABEL_W - 90;
  const max = Math.max(...chart.bars.map((b) => b.value), chart.mark?.value ?? 0) || 1;
  const x = (v) => LABEL_W + (v / max) * plotW;
  const height = top + chart.bars.length * (BAR_H + GAP) + 44;
  const rows = chart.bars.map((b, i) => {
    const y = top + i * (BAR_H + GAP);
    return [
      `<text x="${LABEL_W - 8}" y="${y + BAR_H * 0.7}" text-anchor="end">${escape(b.label)}</text>`,
      `<rect x="${LABEL_W}" y="${y}" width="${Math.max(1, x(b.value) - LABEL_W).toFixed(1)}" height="${BAR_H}" fill="${COLORS[i % COLORS.length]}"/>`,
      `<text x="${(x(b.value) + 6).toFixed(1)}" y="${y + BAR_H * 0.7}">${fmt(b.value)} ${escape(chart.unit)}</text>`,
    ].join('');
  });
  const bottom = top + chart.bars.length * (BAR_H + GAP);
  const mark = chart.mark
    ? `<line x1="${x(chart.mark.value).toFixed(1)}" x2="${x(chart.mark.value).toFixed(1)}" y1="${top - 6}" y2="${bottom}" stroke="#333" stroke-dasharray="4 3"/>` +
      `<text x="${x(chart.mark.value).toFixed(1)}" y="${bottom + 14}" text-anchor="middle" font-size="11">${escape(chart.mark.label)} (${fmt(chart.mark.value)})</text>`
    : '';
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="10" y="20" font-size="14" font-weight="bold">${escape(chart.title)}</text>`,
    ...rows,
    mark,
    `<text x="10" y="${height - 8}" font-size="10" fill="#666">${escape(footer)}</text>`,
    `</svg>`,
    '',
  ].join('\n');
}

/** Writes every chart of every result file; returns the paths written. */
export function drawAll() {
  mkdirSync(CHARTS, { recursive: true });
  const written = [];
  for (const file of readdirSync(RESULTS)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const r = JSON.parse(readFileSync(join(RESULTS, file), 'utf8'));
    const m = r.machine;
    const footer = `${r.command} · ${r.date.slice(0, 16).replace('T', ' ')} UTC · ${m.cores}× ${m.cpu} · Node ${m.node} · load ${m.loadAverage1m}`;
    r.charts.forEach((chart, i) => {
      const out = join(CHARTS, `${r.name}-${i + 1}.svg`);
      writeFileSync(out, chartSvg(chart, footer));
      written.push(out);
    });
  }
  return written;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const f of drawAll()) console.log(`wrote ${f}`);
}
