import type { Readable } from 'node:stream';
import type { Response } from 'express';
import type { Deps } from '../deps';

/**
 * A CSV download, whole (a string) or streamed. A stream's failure after the first bytes cannot
 * become an error body any more, so the connection is cut (the client sees an incomplete download,
 * never a truncated file that looks whole).
 */
export function csvAnswer<T extends Readable | string>(
  deps: Pick<Deps, 'logger'>,
  res: Response,
  filename: string,
  csv: T,
) {
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
  res.setHeader('Cache-Control', 'no-store');
  if (typeof csv === 'string') return { status: 200 as const, body: csv };
  csv.once('error', (error: unknown) => {
    deps.logger.error({ err: error }, 'CSV export failed while streaming');
    res.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return { status: 200 as const, body: csv };
}
