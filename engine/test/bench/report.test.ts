// The quality benchmark's figures (scripts/bench-quality-report.ts) from small synthetic score files in
// score.py's JSON shape.
import { describe, expect, it } from 'vitest';
import {
  acceptance,
  buildReport,
  compareWithBaseline,
  formatReport,
  generalisationGap,
  summarizeClean,
  summarizeDocuments,
  summarizeMethod,
  summarizePhotos,
  type ScoreFile,
  type SetSummary,
  type TextSample,
} from '../../scripts/bench-quality-report.js';

/** A single-page document: CER of the input and of the output. */
function doc(name: string, degraded: number, restored: number): TextSample {
  return {
    name,
    pages: [{ page: 1, degraded: { cer: degraded }, restored: { cer: restored } }],
    degraded: { cer: degraded },
    restored: { cer: restored },
  };
}

/** A PDF: one [degraded, restored] pair per page; the sample's own CER is the mean (score.py weights by chars). */
function pdf(name: string, pages: [number, number][]): TextSample {
  const m = (i: 0 | 1) => pages.reduce((a, p) => a + p[i], 0) / pages.length;
  return {
    name,
    kind: 'pdf',
    pages: pages.map(([d, r], i) => ({ page: i + 1, degraded: { cer: d }, restored: { cer: r } })),
    degraded: { cer: m(0) },
    restored: { cer: m(1) },
  };
}

function photo(name: string, psnrIn: number, psnrOut: number) {
  return { name, degraded: { psnr: psnrIn }, restored: { psnr: psnrOut } };
}

const folio: ScoreFile = {
  text_samples: [
    doc('doc_001', 0.4, 0.1), // improved
    doc('doc_002', 0.2, 0.21), // worse by 1 point
    doc('doc_003', 0.01, 0.012), // +0.2 point: neither
    pdf('pdf_001', [
      [0.3, 0.05],
      [0.1, 0.1],
    ]),
  ],
  photos: [photo('photo_001', 20, 25), photo('photo_002', 30, 28.5)],
};

const opencv: ScoreFile = {
  text_samples: [
    doc('doc_001', 0.4, 0.2), // folio better by 10 points
    doc('doc_002', 0.2, 0.15), // folio worse by 6 points
    doc('doc_003', 0.01, 0.01), // within 0.5 point
    pdf('pdf_001', [
      [0.3, 0.2], // folio better
      [0.1, 0.0], // folio worse
    ]),
  ],
  photos: [photo('photo_001', 20, 19), photo('photo_002', 30, 29)],
};

const close = (v: number | undefined, expected: number) => expect(v).toBeCloseTo(expected, 9);

describe('summarizeDocuments', () => {
  it('gives the mean CERs, the improved and worse documents beyond 0.5 point and the largest rise', () => {
    const d = summarizeDocuments(folio);
    expect(d.n).toBe(4);
    close(d.meanCerDegraded, (0.4 + 0.2 + 0.01 + 0.2) / 4);
    close(d.meanCerRestored, (0.1 + 0.21 + 0.012 + 0.075) / 4);
    expect(d.improved).toBe(2); // doc_001 and pdf_001
    expect(d.worse.map((c) => c.name)).toEqual(['doc_002']);
    expect(d.worstRegression?.name).toBe('doc_002');
    close(d.worstRegression?.delta, 0.01);
  });

  it('has no worst regression when every CER fell or stayed', () => {
    expect(summarizeDocuments({ text_samples: [doc('doc_001', 0.3, 0.1)], photos: [] }).worstRegression).toBe(
      undefined,
    );
  });

  it('counts a missing CER as a failed page (1)', () => {
    const d = summarizeDocuments({
      text_samples: [{ ...doc('doc_001', 0.1, 0.1), restored: {} }],
      photos: [],
    });
    close(d.meanCerRestored, 1);
    expect(d.worse).toHaveLength(1);
  });
});

describe('summarizePhotos', () => {
  it('gives the mean PSNR gain and the lowest one', () => {
    const p = summarizePhotos(folio);
    expect(p.n).toBe(2);
    close(p.meanPsnrGain, (5 - 1.5) / 2);
    expect(p.lowestGain?.name).toBe('photo_002');
    close(p.lowestGain?.delta, -1.5);
  });
});

describe('compareWithBaseline', () => {
  it('compares page by page, PDF pages separately, with a 0.5 point margin', () => {
    const c = compareWithBaseline(folio, opencv);
    expect(c.pages).toBe(5);
    expect(c.better).toBe(2); // doc_001, pdf_001 p1
    expect(c.worse).toBe(2); // doc_002, pdf_001 p2
    expect(c.worsePages.map((p) => p.name)).toEqual(['doc_002', 'pdf_001 p2']);
    close(c.worsePages[0]!.before, 0.15);
    close(c.worsePages[0]!.after, 0.21);
  });

  it('skips pages the baseline did not score', () => {
    const c = compareWithBaseline(folio, { text_samples: [doc('doc_001', 0.4, 0.2)], photos: [] });
    expect(c).toMatchObject({ pages: 1, better: 1, worse: 0 });
  });
});

describe('summarizeClean', () => {
  it('gives the largest CER change and the pages beyond 0.2 point', () => {
    const c = summarizeClean({
      text_samples: [doc('doc_001', 0.0, 0.001), doc('doc_002', 0.01, 0.013), doc('doc_003', 0.02, 0.0)],
      photos: [],
    });
    expect(c.n).toBe(3);
    expect(c.maxChange?.name).toBe('doc_002');
    expect(c.beyond.map((b) => b.name)).toEqual(['doc_002']);
  });
});

function setSummary(label: string, score: ScoreFile, clean?: ScoreFile): SetSummary {
  return {
    label,
    description: label,
    folio: summarizeMethod('folio', score, { secPerDocPage: 2, secPerPhoto: 1 }),
    baselines: [summarizeMethod('opencv', opencv, { secPerDocPage: 1, secPerPhoto: 0.2 })],
    vsOpencv: compareWithBaseline(score, opencv),
    clean: clean && summarizeClean(clean),
  };
}

describe('acceptance', () => {
  it('fails the lines the figures miss', () => {
    const lines = acceptance(setSummary('fresh', folio));
    const verdicts = Object.fromEntries(lines.map((l) => [l.criterion, l.verdict]));
    expect(lines.every((l) => l.set === 'fresh')).toBe(true);
    expect(verdicts).toEqual({
      'mean CER restored ≤ 0.5 × degraded': 'pass', // 0.0993 ≤ 0.5 × 0.2025
      'no document worse by more than 0.5 point': 'fail', // doc_002
      'better than opencv on most pages where they differ by more than 0.5 point': 'fail', // 2 of 4
      'clean pages: CER up by at most 0.2 point': 'n/a', // not run
      'photos: mean PSNR gain ≥ +3 dB': 'fail', // +1.75 dB
      'photos: no gain below −1 dB': 'fail', // −1.5 dB
    });
  });

  it('passes a set that meets every line', () => {
    const good: ScoreFile = {
      text_samples: [doc('doc_001', 0.4, 0.1), doc('doc_002', 0.2, 0.1), doc('doc_003', 0.01, 0.01)],
      photos: [photo('photo_001', 20, 24), photo('photo_002', 30, 29.5)],
    };
    const clean: ScoreFile = { text_samples: [doc('doc_001', 0.01, 0.012)], photos: [] };
    const lines = acceptance(setSummary('fresh', good, clean));
    expect(lines.map((l) => l.verdict)).toEqual(['pass', 'pass', 'pass', 'pass', 'fail', 'pass']);
    // +1.75 dB mean: the photo line fails alone; with +3 dB it passes
    good.photos[1] = photo('photo_002', 30, 32);
    expect(acceptance(setSummary('fresh', good, clean)).every((l) => l.verdict === 'pass')).toBe(true);
  });

  it('says n/a when no page differs from opencv', () => {
    const line = acceptance(setSummary('fresh', opencv)).find((l) => l.criterion.startsWith('better than'));
    expect(line?.verdict).toBe('n/a');
  });
});

describe('generalisationGap', () => {
  const publicSet = setSummary('public', {
    text_samples: [doc('doc_001', 0.3, 0.1), doc('doc_002', 0.3, 0.1)],
    photos: [],
  });

  it('is the fresh mean restored CER minus the public one, passing below 0.03', () => {
    const near = setSummary('fresh', { text_samples: [doc('doc_001', 0.3, 0.12)], photos: [] });
    const gap = generalisationGap(publicSet, near);
    close(gap.gap, 0.02);
    expect(gap.verdict).toBe('pass');
    const far = setSummary('fresh', { text_samples: [doc('doc_001', 0.3, 0.14)], photos: [] });
    expect(generalisationGap(publicSet, far).verdict).toBe('fail');
  });

  it('gives the same difference for the baselines run on both sets', () => {
    const gap = generalisationGap(publicSet, setSummary('fresh', folio));
    expect(gap.byMethod.map((m) => m.method)).toEqual(['opencv', 'folio']);
    close(gap.byMethod[0]!.gap, 0); // the same opencv file on both sides
    close(gap.byMethod[1]!.gap, summarizeDocuments(folio).meanCerRestored - 0.1);
  });
});

describe('buildReport and formatReport', () => {
  it('adds the gap only when both sets ran, and prints every verdict', () => {
    const pub = setSummary('public', folio);
    const fresh = setSummary('fresh', folio);
    const extra = { date: '2026-11-24', command: 'npm run bench:quality -w @folio/engine -- --fresh-seed 7' };
    expect(buildReport([pub], extra).gap).toBe(undefined);
    const report = buildReport([pub, fresh], extra);
    close(report.gap?.gap, 0);
    expect(report.acceptance).toHaveLength(12);
    const md = formatReport(report);
    expect(md).toContain('--fresh-seed 7');
    expect(md).toContain('= **+0.000** (target below 0.03): **pass**');
    expect(md).toContain(
      '| fresh | no document worse by more than 0.5 point | 1 worse: doc_002 0.200 → 0.210 (+1.0 pt) | **fail** |',
    );
    expect(md).toContain('better on 2, worse on 2, within 0.5 point on 1 of 5 pages');
  });
});
