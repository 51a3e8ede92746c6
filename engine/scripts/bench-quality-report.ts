// Pure part of the quality benchmark (bench-quality.ts): the per-set summary, the generalisation gap and the
// acceptance lines of issue 19, computed from the eval scorer's JSON files (score.py --json), and the markdown
// report. No file or process access here, so test/bench/report.test.ts can feed it small synthetic score files.

/** A CER, WER or pixel score of one image as score.py writes it (only the fields used here). */
export interface ImageScore {
  cer?: number;
  psnr?: number;
}

export interface TextSample {
  name: string;
  kind?: string;
  pages: { page: number; degraded: ImageScore; restored: ImageScore }[];
  degraded: ImageScore;
  restored: ImageScore;
}

export interface PhotoSample {
  name: string;
  degraded: ImageScore;
  restored: ImageScore;
}

/** score.py --json, the parts the report reads. */
export interface ScoreFile {
  text_samples: TextSample[];
  photos: PhotoSample[];
}

/** Timings of one method on one set: wall seconds per document page and per photo. */
export interface Speed {
  secPerDocPage: number;
  secPerPhoto: number;
  /** Folio only: CPU seconds per document page (all threads and ended children) */
  cpuSecPerDocPage?: number;
  /** Folio only: mean seconds from start to finish of one document page */
  latencySecPerDocPage?: number;
}

/** "CER up by more than 0.5 point": the margin of worse / improved documents and of the comparison with opencv. */
export const CER_MARGIN = 0.005;
/** Clean pages through the engine: CER must not grow by more than 0.2 point. */
export const CLEAN_MARGIN = 0.002;
/** Target of the generalisation gap (fresh mean restored CER minus public). */
export const GAP_TARGET = 0.03;

export interface Change {
  name: string;
  before: number;
  after: number;
  delta: number;
}

export interface DocumentSummary {
  n: number;
  meanCerDegraded: number;
  meanCerRestored: number;
  /** CER down by more than CER_MARGIN */
  improved: number;
  /** CER up by more than CER_MARGIN */
  worse: Change[];
  /** The largest rise of CER (restored minus degraded); undefined when no document's CER rose */
  worstRegression?: Change;
}

export interface PhotoSummary {
  n: number;
  meanPsnrGain: number;
  lowestGain?: Change;
}

export interface MethodSummary {
  method: string;
  documents: DocumentSummary;
  photos: PhotoSummary;
  speed?: Speed;
}

/** Folio against opencv, page by page (a PDF's pages separately). */
export interface Comparison {
  pages: number;
  better: number;
  worse: number;
  /** The pages where Folio reads worse than opencv by more than CER_MARGIN */
  worsePages: Change[];
}

export interface CleanSummary {
  n: number;
  maxChange?: Change;
  beyond: Change[];
}

export interface SetSummary {
  /** "public", "fresh" */
  label: string;
  /** How the set was made (seed, profile, folder) */
  description: string;
  folio: MethodSummary;
  baselines: MethodSummary[];
  vsOpencv?: Comparison;
  clean?: CleanSummary;
}

export type Verdict = 'pass' | 'fail' | 'n/a';

export interface AcceptanceLine {
  set: string;
  criterion: string;
  figure: string;
  verdict: Verdict;
}

export interface Gap {
  fresh: number;
  public: number;
  gap: number;
  verdict: Verdict;
  /** The same difference for every method run on both sets (the baselines show how much harder the fresh set is) */
  byMethod: { method: string; public: number; fresh: number; gap: number }[];
}

const mean = (xs: number[]): number => (xs.length ? xs.reduce((a, x) => a + x, 0) / xs.length : NaN);
const cer = (s: ImageScore): number => s.cer ?? 1;

/** Documents (single pages and PDFs, one figure each as score.py gives them) of one method's score file. */
export function summarizeDocuments(score: ScoreFile): DocumentSummary {
  const changes = score.text_samples.map((s) => change(s.name, cer(s.degraded), cer(s.restored)));
  const worst = changes.reduce<Change | undefined>(
    (w, c) => (c.delta > 0 && (!w || c.delta > w.delta) ? c : w),
    undefined,
  );
  return {
    n: changes.length,
    meanCerDegraded: mean(changes.map((c) => c.before)),
    meanCerRestored: mean(changes.map((c) => c.after)),
    improved: changes.filter((c) => c.delta < -CER_MARGIN).length,
    worse: changes.filter((c) => c.delta > CER_MARGIN),
    worstRegression: worst,
  };
}

export function summarizePhotos(score: ScoreFile): PhotoSummary {
  const gains = score.photos.map((p) => change(p.name, p.degraded.psnr ?? 0, p.restored.psnr ?? 0));
  const lowest = gains.reduce<Change | undefined>((l, g) => (!l || g.delta < l.delta ? g : l), undefined);
  return { n: gains.length, meanPsnrGain: mean(gains.map((g) => g.delta)), lowestGain: lowest };
}

export function summarizeMethod(method: string, score: ScoreFile, speed?: Speed): MethodSummary {
  return { method, documents: summarizeDocuments(score), photos: summarizePhotos(score), speed };
}

/**
 * Folio's restored CER against opencv's on every page both scored (`name` or `name p2` for PDF pages): better or
 * worse when they differ by more than CER_MARGIN. `before` is opencv's CER, `after` Folio's.
 */
export function compareWithBaseline(folio: ScoreFile, baseline: ScoreFile): Comparison {
  const theirs = new Map<string, number>();
  for (const s of baseline.text_samples)
    for (const p of s.pages) theirs.set(pageName(s, p.page), cer(p.restored));
  const pages: Change[] = [];
  for (const s of folio.text_samples)
    for (const p of s.pages) {
      const other = theirs.get(pageName(s, p.page));
      if (other !== undefined) pages.push(change(pageName(s, p.page), other, cer(p.restored)));
    }
  const worsePages = pages.filter((c) => c.delta > CER_MARGIN);
  return {
    pages: pages.length,
    better: pages.filter((c) => c.delta < -CER_MARGIN).length,
    worse: worsePages.length,
    worsePages,
  };
}

/** The clean-page check's score file: "degraded" is the clean page as given, "restored" the engine's output. */
export function summarizeClean(score: ScoreFile): CleanSummary {
  const changes = score.text_samples.map((s) => change(s.name, cer(s.degraded), cer(s.restored)));
  return {
    n: changes.length,
    maxChange: changes.reduce<Change | undefined>((m, c) => (!m || c.delta > m.delta ? c : m), undefined),
    beyond: changes.filter((c) => c.delta > CLEAN_MARGIN),
  };
}

export function generalisationGap(publicSet: SetSummary, fresh: SetSummary): Gap {
  const f = fresh.folio.documents.meanCerRestored;
  const p = publicSet.folio.documents.meanCerRestored;
  const gap = f - p;
  const byMethod = [...publicSet.baselines, publicSet.folio].flatMap((m) => {
    const other = [...fresh.baselines, fresh.folio].find((o) => o.method === m.method);
    if (!other) return [];
    const [pm, fm] = [m.documents.meanCerRestored, other.documents.meanCerRestored];
    return [{ method: m.method, public: pm, fresh: fm, gap: fm - pm }];
  });
  return {
    fresh: f,
    public: p,
    gap,
    verdict: Number.isFinite(gap) ? (gap < GAP_TARGET ? 'pass' : 'fail') : 'n/a',
    byMethod,
  };
}

/**
 * The issue's acceptance lines for one set, one by one. The issue states them for the fresh set; the public
 * set's lines are printed beside them for comparison.
 */
export function acceptance(set: SetSummary): AcceptanceLine[] {
  const d = set.folio.documents;
  const ph = set.folio.photos;
  const line = (criterion: string, figure: string, verdict: Verdict): AcceptanceLine => ({
    set: set.label,
    criterion,
    figure,
    verdict,
  });
  const lines = [
    line(
      'mean CER restored ≤ 0.5 × degraded',
      `${f3(d.meanCerRestored)} against 0.5 × ${f3(d.meanCerDegraded)} = ${f3(d.meanCerDegraded / 2)}`,
      d.n ? verdict(d.meanCerRestored <= d.meanCerDegraded / 2) : 'n/a',
    ),
    line(
      'no document worse by more than 0.5 point',
      d.worse.length
        ? `${d.worse.length} worse: ${d.worse.map(describe).join(', ')}`
        : d.worstRegression
          ? `none; largest rise ${describe(d.worstRegression)}`
          : `none of ${d.n} rose`,
      d.n ? verdict(d.worse.length === 0) : 'n/a',
    ),
  ];
  const c = set.vsOpencv;
  lines.push(
    line(
      'better than opencv on most pages where they differ by more than 0.5 point',
      c
        ? `better on ${c.better}, worse on ${c.worse} of ${c.pages} pages` +
            (c.worsePages.length ? ` (worse: ${c.worsePages.map(describe).join(', ')})` : '')
        : 'opencv not run',
      !c || c.better + c.worse === 0 ? 'n/a' : verdict(c.better > (c.better + c.worse) / 2),
    ),
  );
  const cl = set.clean;
  lines.push(
    line(
      'clean pages: CER up by at most 0.2 point',
      cl?.maxChange
        ? `${cl.n - cl.beyond.length} of ${cl.n} within; largest change ${describe(cl.maxChange)}`
        : 'not run',
      cl?.n ? verdict(cl.beyond.length === 0) : 'n/a',
    ),
  );
  lines.push(
    line(
      'photos: mean PSNR gain ≥ +3 dB',
      ph.n ? `${dB(ph.meanPsnrGain)} over ${ph.n} photo${ph.n === 1 ? '' : 's'}` : 'no photo',
      ph.n ? verdict(ph.meanPsnrGain >= 3) : 'n/a',
    ),
    line(
      'photos: no gain below −1 dB',
      ph.lowestGain ? `lowest ${ph.lowestGain.name} ${dB(ph.lowestGain.delta)}` : 'no photo',
      ph.lowestGain ? verdict(ph.lowestGain.delta >= -1) : 'n/a',
    ),
  );
  return lines;
}

export interface Report {
  /** ISO time of the run */
  date: string;
  command: string;
  sets: SetSummary[];
  gap?: Gap;
  acceptance: AcceptanceLine[];
  peakRssMb?: number;
}

/** The whole report from the sets' summaries: the gap when both sets ran, and every set's acceptance lines. */
export function buildReport(
  sets: SetSummary[],
  extra: { date: string; command: string; peakRssMb?: number },
): Report {
  const pub = sets.find((s) => s.label === 'public');
  const fresh = sets.find((s) => s.label === 'fresh');
  return {
    ...extra,
    sets,
    gap: pub && fresh ? generalisationGap(pub, fresh) : undefined,
    acceptance: sets.flatMap(acceptance),
  };
}

/** The report as markdown. */
export function formatReport(r: Report): string {
  const out: string[] = [`# Quality benchmark, ${r.date}`, '', `\`${r.command}\``, ''];
  for (const s of r.sets) {
    out.push(`## ${s.label}: ${s.description}`, '');
    out.push(
      '| method | documents | mean CER degraded → restored | improved / worse (> 0.5 pt) | worst regression | photos | mean photo PSNR gain | lowest photo gain | s per doc page | s per photo |',
      '|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const m of [...s.baselines, s.folio]) {
      const d = m.documents;
      const p = m.photos;
      const bold = m === s.folio ? '**' : '';
      out.push(
        `| ${bold}${m.method}${bold} | ${d.n} | ${f3(d.meanCerDegraded)} → ${bold}${f3(d.meanCerRestored)}${bold} | ` +
          `${d.improved} / ${d.worse.length} | ${d.worstRegression ? describe(d.worstRegression) : 'none'} | ${p.n} | ` +
          `${p.n ? dB(p.meanPsnrGain) : '—'} | ${p.lowestGain ? `${p.lowestGain.name} ${dB(p.lowestGain.delta)}` : '—'} | ` +
          `${m.speed ? m.speed.secPerDocPage.toFixed(2) : '—'} | ${m.speed ? m.speed.secPerPhoto.toFixed(2) : '—'} |`,
      );
    }
    out.push('');
    const c = s.vsOpencv;
    if (c)
      out.push(
        `- Folio against opencv, page by page: better on ${c.better}, worse on ${c.worse}, within 0.5 point on ` +
          `${c.pages - c.better - c.worse} of ${c.pages} pages` +
          (c.worsePages.length ? `; worse: ${c.worsePages.map(describe).join(', ')}` : ''),
      );
    const cl = s.clean;
    if (cl?.maxChange)
      out.push(
        `- Clean pages through the engine: ${cl.n - cl.beyond.length} of ${cl.n} within 0.2 point; largest change ` +
          describe(cl.maxChange) +
          (cl.beyond.length ? `; beyond: ${cl.beyond.map(describe).join(', ')}` : ''),
      );
    else out.push('- Clean pages: not checked (--no-clean)');
    const sp = s.folio.speed;
    if (sp)
      out.push(
        `- Folio speed: ${sp.secPerDocPage.toFixed(2)} s of wall time per document page` +
          (sp.latencySecPerDocPage !== undefined
            ? `, ${sp.latencySecPerDocPage.toFixed(2)} s from start to finish`
            : '') +
          (sp.cpuSecPerDocPage !== undefined ? `, ${sp.cpuSecPerDocPage.toFixed(2)} s of CPU` : '') +
          `; ${sp.secPerPhoto.toFixed(2)} s per photo`,
      );
    out.push('');
  }
  if (r.peakRssMb !== undefined)
    out.push(`Peak RSS of the engine's process: ${r.peakRssMb.toFixed(0)} MB`, '');
  out.push('## Generalisation gap', '');
  if (r.gap) {
    out.push(
      `Folio's fresh mean restored CER minus its public one: ${f3(r.gap.fresh)} − ${f3(r.gap.public)} = ` +
        `**${sign(r.gap.gap, 3)}** (target below ${GAP_TARGET}): **${r.gap.verdict}**`,
      '',
      '| method | mean CER restored, public | fresh | fresh − public |',
      '|---|---|---|---|',
    );
    for (const g of r.gap.byMethod)
      out.push(`| ${g.method} | ${f3(g.public)} | ${f3(g.fresh)} | ${sign(g.gap, 3)} |`);
    out.push('');
  } else out.push('Not measured: this run did not score both the public and the fresh set.', '');
  out.push(
    '## Acceptance lines',
    '',
    "The issue's acceptance is on the fresh set" +
      (r.sets.some((s) => s.label === 'public') ? "; the public set's lines are given for comparison." : '.'),
    '',
    '| set | criterion | figure | verdict |',
    '|---|---|---|---|',
  );
  for (const a of r.acceptance)
    out.push(
      `| ${a.set} | ${a.criterion} | ${a.figure} | ${a.verdict === 'fail' ? '**fail**' : a.verdict} |`,
    );
  return out.join('\n') + '\n';
}

function change(name: string, before: number, after: number): Change {
  return { name, before, after, delta: after - before };
}

function pageName(s: TextSample, page: number): string {
  return s.pages.length > 1 ? `${s.name} p${page}` : s.name;
}

function verdict(ok: boolean): Verdict {
  return ok ? 'pass' : 'fail';
}

const f3 = (v: number): string => (Number.isFinite(v) ? v.toFixed(3) : 'n/a');
const sign = (v: number, d: number): string => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(d)}`;
const dB = (v: number): string => `${sign(v, 1)} dB`;

/** "doc_012 0.003 → 0.161 (+15.8 pt)" */
function describe(c: Change): string {
  return `${c.name} ${f3(c.before)} → ${f3(c.after)} (${sign(c.delta * 100, 1)} pt)`;
}
