// Peak memory and time of every PDF path (inspect, thumbnail, page decode) on the generated PDF bombs. Each run
// is a child process watched from outside: it is killed past --cap-mb resident or --limit-s seconds, so the
// figures of an unbounded path read "killed" instead of taking the machine down.
//   node --import tsx scripts/bench-pdf-bombs.ts [--cap-mb 3000] [--limit-s 60] [bomb ...]
import { measurePdfRun, PDF_OPS, type PdfOp } from '../test/fixtures/pdf-run.js';
import * as bombs from '../test/fixtures/pdf-bombs.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const value = Number(args[at + 1]);
  args.splice(at, 2);
  return value;
};
const capMb = option('--cap-mb', 3000);
const limitS = option('--limit-s', 60);
const makers = Object.fromEntries(
  Object.entries(bombs).filter(([name]) => name !== 'writePdf' && name !== 'onePage'),
) as Record<string, () => Buffer>;
const chosen = args.length > 0 ? args : Object.keys(makers);

for (const name of chosen) {
  const make = makers[name];
  if (!make) throw new Error(`no bomb called ${name}`);
  const bytes = make();
  for (const op of PDF_OPS as readonly PdfOp[]) {
    const run = await measurePdfRun(op, bytes, { capMb, limitS });
    console.log(
      [
        name.padEnd(22),
        `${(bytes.length / 1024).toFixed(0)} KB`.padStart(8),
        op.padEnd(9),
        `peak ${run.peakRssMb} MB`.padEnd(14),
        `${(run.ms / 1000).toFixed(1)} s`.padStart(7),
        run.killed ? `killed (${run.killed})` : run.outcome,
      ].join('  '),
    );
  }
}
