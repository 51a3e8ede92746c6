// Scoring of OCR text against an eval page's reference, with the eval scorer's normalisation (NFKC, quotes and
// dashes unified, whitespace runs collapsed): character error rate and an order-free bag-of-words error.
import { editDistance } from '../src/guard/edit-distance.js';

export function normalise(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u2010-\u2015]/g, '-')
    .split(/\s+/)
    .filter(Boolean)
    .join(' ');
}

export function cer(hypothesis: string, reference: string): number {
  const ref = normalise(reference);
  return Math.min(1, editDistance(normalise(hypothesis), ref) / Math.max(1, ref.length));
}

export function bow(hypothesis: string, reference: string): number {
  const count = (s: string) => {
    const m = new Map<string, number>();
    for (const w of normalise(s).split(' ')) if (w) m.set(w, (m.get(w) ?? 0) + 1);
    return m;
  };
  const h = count(hypothesis);
  const r = count(reference);
  let common = 0;
  for (const [w, n] of h) common += Math.min(n, r.get(w) ?? 0);
  const nh = [...h.values()].reduce((a, b) => a + b, 0);
  const nr = [...r.values()].reduce((a, b) => a + b, 0);
  return nh + nr === 0 ? 0 : 1 - (2 * common) / (nh + nr);
}

/** Removes `name value` from the command-line arguments of an OCR benchmark script and returns the value. */
export function takeOption(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const [value] = args.splice(i, 2).slice(1);
  return value;
}
