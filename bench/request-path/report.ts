export type PathRow = {
  route: string;
  connections: number;
  /** Medians over the rounds. */
  rps: number;
  p50: number;
  p99: number;
  baseline: string;
  baselineRps: number;
  /** The median of the rounds' ratios (route ÷ baseline, measured back to back), and their range. */
  ratio: number;
  ratioRange: [number, number];
  errors: number;
};
export type PathReport = { rows: PathRow[]; notes: string[] };

const HEADER = [
  'route',
  'conns',
  'req/s',
  'p50 ms',
  'p99 ms',
  'baseline',
  'base req/s',
  'ratio',
  'rounds range',
  'errors',
];
/** Text columns, left-aligned; the figures are right-aligned. */
const TEXT_COLUMNS = new Set([0, 5]);

function rowCells(r: PathRow): string[] {
  return [
    r.route,
    String(r.connections),
    r.rps.toFixed(0),
    r.p50.toFixed(1),
    r.p99.toFixed(1),
    r.baseline,
    r.baselineRps.toFixed(0),
    r.ratio.toFixed(2),
    `${r.ratioRange[0].toFixed(2)}–${r.ratioRange[1].toFixed(2)}`,
    String(r.errors),
  ];
}

export function printPathReport(report: PathReport, print: (line: string) => void) {
  const lines = report.rows.map(rowCells);
  const widths = HEADER.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const fmt = (cells: string[]) =>
    cells
      .map((c, i) => (TEXT_COLUMNS.has(i) ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join('  ');
  print(fmt(HEADER));
  print(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines) print(fmt(l));
  for (const note of report.notes) print(`- ${note}`);
}
