/**
 * A tiny hand-made SVG sparkline: one polyline over the daily values, no chart library (vega would add megabytes and
 * milliseconds to a route polled every 5 minutes). Input is numbers only, so nothing can inject markup.
 */
export function sparklineSvg(values: readonly number[], options: { width?: number; height?: number; label: string }): string {
  const width = options.width ?? 120;
  const height = options.height ?? 24;
  const pad = 1;
  const max = Math.max(1, ...values);
  const step = values.length > 1 ? (width - 2 * pad) / (values.length - 1) : 0;
  const points = values
    .map((v, i) => {
      const x = pad + i * step;
      const y = height - pad - (Math.max(0, v) / max) * (height - 2 * pad);
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
  const label = options.label.replace(/[<>&"]/g, '');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${label}">` +
    `<title>${label}</title>` +
    `<polyline fill="none" stroke="currentColor" stroke-width="1.5" stroke-linejoin="round" points="${points}"/>` +
    `</svg>`
  );
}
