// The daily traffic chart: uPlot on a canvas, resized with its container, plus the same numbers as a table for
// screen readers and anyone who prefers figures (the canvas itself is aria-hidden).
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { html, num } from 'app/ui.js';

const SERIES = [
  { key: 'requests', label: 'Requests', stroke: '#2f6fde' },
  { key: 'blocked', label: 'Blocked', stroke: '#c0392b' },
  { key: 'redacted', label: 'Redacted', stroke: '#b7791f' },
  { key: 'shadow_banned', label: 'Shadow-banned', stroke: '#6b46c1' },
];

export function DailyChart({ series }) {
  const box = useRef(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const data = [series.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000), ...SERIES.map((s) => series.map((d) => d[s.key]))];
    const width = () => Math.max(280, el.clientWidth);
    const plot = new uPlot(
      {
        width: width(),
        height: 240,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(5, max)] } },
        axes: [{}, { values: (_u, ticks) => ticks.map((t) => num(t)) }],
        series: [{}, ...SERIES.map((s) => ({ label: s.label, stroke: s.stroke, width: 2, points: { show: true, size: 5 } }))],
        legend: { show: true },
      },
      data,
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: width(), height: 240 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [series]);
  return html`<figure class="chart">
    <figcaption>Requests per UTC day</figcaption>
    <div ref=${box} aria-hidden="true"></div>
    <details>
      <summary>Show the numbers</summary>
      <div class="table-wrap" tabindex="0" role="region" aria-label="Daily numbers">
        <table>
          <thead><tr><th scope="col">Day</th>${SERIES.map((s) => html`<th scope="col">${s.label}</th>`)}</tr></thead>
          <tbody>${series.slice().reverse().map((d) => html`<tr><th scope="row">${d.date}</th>${SERIES.map((s) => html`<td>${num(d[s.key])}</td>`)}</tr>`)}</tbody>
        </table>
      </div>
    </details>
  </figure>`;
}
