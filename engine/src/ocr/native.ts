// Word-level OCR with the system's Tesseract binary (Debian's tesseract-ocr with its "fast" English model): one
// child process per image, the pixels as binary PNM on stdin, TSV words on stdout, one thread each, with a time
// limit. About 1.3 s of CPU per page pass against 2.2 s for tesseract.js here (engine/README.md).
import { spawn } from 'node:child_process';
import type { RawImage } from '../image.js';
import { DEFAULT_OCR_TIMEOUT_MS, engineSettings } from '../settings.js';
import { toPnm, type OcrLine, type OcrResult, type OcrWord, type RecognizeOptions } from './recognize.js';
import { OcrError } from './worker.js';

/** The OCR child process ran past its time limit and was stopped. */
export class OcrTimeoutError extends OcrError {
  override readonly name: string = 'OcrTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`the OCR did not finish within ${timeoutMs} ms`);
  }
}

export interface NativeOcrOptions extends RecognizeOptions {
  /** The Tesseract program: a name looked up in PATH or a path; 'tesseract' by default. */
  binary?: string;
  /** The child is killed past this; 60 s by default. */
  timeoutMs?: number;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runTesseract(
  binary: string,
  args: string[],
  input: Buffer | undefined,
  timeoutMs: number,
): Promise<Run> {
  return new Promise((resolve, reject) => {
    // One OpenMP thread per child (the settings' environment): the engine runs one page per core already.
    const child = spawn(binary, args, {
      env: engineSettings().tesseractEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new OcrTimeoutError(timeoutMs));
    }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (cause) => {
      clearTimeout(timer);
      reject(new OcrError(`the OCR program "${binary}" could not start: ${cause.message}`, { cause }));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
    // A child that exits early (bad arguments) closes stdin; its exit status tells what happened.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}

const languages = new Map<string, Promise<string[]>>();

/** The models this Tesseract program has (none where it does not run); asked once per thread and program. */
function installedModels(binary: string): Promise<string[]> {
  let known = languages.get(binary);
  if (!known) {
    known = runTesseract(binary, ['--list-langs'], undefined, 10_000).then(
      (run) => (run.code === 0 ? run.stdout.split('\n').map((line) => line.trim()) : []),
      () => [],
    );
    languages.set(binary, known);
  }
  return known;
}

/** Whether this Tesseract program runs and has the English model (`tesseract --list-langs`). */
export async function nativeOcrAvailable(binary = 'tesseract'): Promise<boolean> {
  return (await installedModels(binary)).includes('eng');
}

/** Whether it also has the orientation and script model (Debian's tesseract-ocr-osd) that `--psm 0` needs. */
export async function nativeOrientationAvailable(binary = 'tesseract'): Promise<boolean> {
  const models = await installedModels(binary);
  return models.includes('eng') && models.includes('osd');
}

/** Tesseract's TSV: level 5 rows are words, grouped into lines by block, paragraph and line number. */
export function parseTsv(tsv: string): OcrResult {
  const lines = new Map<string, OcrLine>();
  const paragraphs: OcrLine[][] = [];
  const paragraphOf = new Map<string, OcrLine[]>();
  for (const row of tsv.split('\n')) {
    const cols = row.split('\t');
    if (cols.length < 12 || cols[0] !== '5') continue;
    // level page block paragraph line word left top width height conf text
    const [, , block, par, line, , left, top, width, height, conf] = cols.slice(0, 11).map(Number);
    const text = cols.slice(11).join('\t').trim();
    if (text.length === 0) continue;
    const word: OcrWord = {
      text,
      confidence: Math.max(0, conf ?? 0),
      x0: left ?? 0,
      y0: top ?? 0,
      x1: (left ?? 0) + (width ?? 0),
      y1: (top ?? 0) + (height ?? 0),
    };
    const parKey = `${block}.${par}`;
    const lineKey = `${parKey}.${line}`;
    let current = lines.get(lineKey);
    if (!current) {
      current = { text: '', confidence: 0, x0: word.x0, y0: word.y0, x1: word.x1, y1: word.y1, words: [] };
      lines.set(lineKey, current);
      let paragraph = paragraphOf.get(parKey);
      if (!paragraph) {
        paragraph = [];
        paragraphOf.set(parKey, paragraph);
        paragraphs.push(paragraph);
      }
      paragraph.push(current);
    }
    current.words.push(word);
    current.x0 = Math.min(current.x0, word.x0);
    current.y0 = Math.min(current.y0, word.y0);
    current.x1 = Math.max(current.x1, word.x1);
    current.y1 = Math.max(current.y1, word.y1);
  }
  for (const line of lines.values()) {
    line.text = line.words.map((w) => w.text).join(' ');
    line.confidence = line.words.reduce((sum, w) => sum + w.confidence, 0) / line.words.length;
  }
  // Plain text as Tesseract writes it: a line per line, a blank line between paragraphs.
  const text = paragraphs.map((p) => p.map((l) => `${l.text}\n`).join('')).join('\n');
  const all = [...lines.values()];
  return { text, words: all.flatMap((l) => l.words), lines: all };
}

export async function recognizeWordsNative(img: RawImage, opts: NativeOcrOptions = {}): Promise<OcrResult> {
  if (img.width < 1 || img.height < 1 || img.data.length !== img.width * img.height * img.channels) {
    throw new RangeError(`image data does not match ${img.width}×${img.height}×${img.channels}`);
  }
  const { binary = 'tesseract', timeoutMs = DEFAULT_OCR_TIMEOUT_MS } = opts;
  const args = ['stdin', 'stdout', '-l', 'eng', '--psm', String(opts.psm ?? 3)];
  if (opts.dpi) args.push('--dpi', String(Math.round(opts.dpi)));
  args.push('-c', `tessedit_do_invert=${opts.invert ? 1 : 0}`, 'tsv');
  const run = await runTesseract(binary, args, toPnm(img), timeoutMs);
  if (run.code !== 0) {
    throw new OcrError(`the OCR program failed (exit ${run.code}): ${run.stderr.trim().slice(0, 300)}`);
  }
  return parseTsv(run.stdout);
}

export interface DetectedOrientation {
  /** Quarter turns clockwise that bring the page upright. */
  turns: 0 | 1 | 2 | 3;
  /** Tesseract's orientation confidence: how far the best way up stands above the next (0 to about 30 here). */
  confidence: number;
}

/**
 * Tesseract's orientation detection (`--psm 0`, the step OCRmyPDF's --rotate-pages runs): it classifies a sample of
 * the page's characters in all four ways up. Undefined where it found too few characters to say.
 */
export async function detectOrientationNative(
  img: RawImage,
  opts: Pick<NativeOcrOptions, 'binary' | 'timeoutMs' | 'dpi'> = {},
): Promise<DetectedOrientation | undefined> {
  const { binary = 'tesseract', timeoutMs = DEFAULT_OCR_TIMEOUT_MS } = opts;
  const args = ['stdin', 'stdout', '--psm', '0'];
  if (opts.dpi) args.push('--dpi', String(Math.round(opts.dpi)));
  const run = await runTesseract(binary, args, toPnm(img), timeoutMs);
  // Too few characters is exit 1 with "Too few characters" on stderr: no answer, not a failure.
  if (run.code !== 0 && /too few characters/i.test(run.stderr)) return undefined;
  if (run.code !== 0) {
    throw new OcrError(
      `the orientation detection failed (exit ${run.code}): ${run.stderr.trim().slice(0, 300)}`,
    );
  }
  return parseOrientation(run.stdout);
}

/** Tesseract's OSD report: "Rotate: 90" is the clockwise turn that makes the page upright. */
export function parseOrientation(report: string): DetectedOrientation | undefined {
  const rotate = /^Rotate:\s*(\d+)/m.exec(report);
  const confidence = /^Orientation confidence:\s*([\d.]+)/m.exec(report);
  if (!rotate || !confidence) return undefined;
  const degrees = Number(rotate[1]);
  if (degrees % 90 !== 0) return undefined;
  return { turns: ((degrees / 90) % 4) as DetectedOrientation['turns'], confidence: Number(confidence[1]) };
}
