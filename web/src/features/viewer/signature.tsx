// Signatures for pdf.js's signature editor. pdf.js's full signature dialog is part of its app, not of its viewer
// components, so the editor asks this small manager instead. Its three ways are pdf.js's own: a typed name, a
// drawing or an image becomes the signature's outline through the editor's getFromText, getDrawnSignature or
// getFromImage, and lands on the page with addSignature, as in pdf.js's dialog.
import { useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { focusRing, primaryButton, secondaryButton } from '../../components/ui/styles.js';
import { SIGNATURE_HEIGHT_PT } from './texts.js';

/** The parts of pdf.js's SignatureEditor this manager uses. */
interface SignatureEditor {
  getFromText(text: string, font: { fontFamily: string; fontStyle: string; fontWeight: string }): unknown;
  /** Strokes as flat [x, y, x, y, …] lists in a drawing area of width × height; null when there is none. */
  getDrawnSignature(lines: {
    curves: { points: number[] }[];
    thickness: number;
    width: number;
    height: number;
  }): unknown;
  /** The outline pdf.js extracts from a picture of a signature; null when it finds none. */
  getFromImage(bitmap: ImageBitmap): unknown;
  addSignature(data: unknown, heightInPage: number, description: string, uuid: string | null): void;
  remove(): void;
}

export interface SignatureRequest {
  editor: SignatureEditor;
}

/** The interface pdf.js's AnnotationEditorUIManager calls on its signature manager. */
export function createSignatureManager(ask: (request: SignatureRequest) => void) {
  return {
    getSignature: ({ editor }: { editor: SignatureEditor }) => ask({ editor }),
    loadSignatures: () => Promise.resolve(),
    // pdf.js's editor toolbar asks for an "edit description" button; the typed name is the description, so none.
    renderEditButton: () => {
      const none = document.createElement('span');
      none.hidden = true;
      return Promise.resolve(none);
    },
    destroy: () => {},
  };
}

const SIGNATURE_FONT = { fontFamily: 'cursive', fontStyle: 'italic', fontWeight: '400' };
const TABS = ['Type', 'Draw', 'Image'] as const;
type Tab = (typeof TABS)[number];
/** The drawing area, in CSS px, and its pen (pdf.js's dialog default thickness). */
const PAD = { width: 360, height: 140 };
const PEN_WIDTH = 2;

/** What the chosen tab would add: the outline data, and the description pdf.js keeps with it. */
interface Ready {
  data: unknown;
  description: string;
}

export function SignaturePrompt({ request, onDone }: { request: SignatureRequest; onDone: () => void }) {
  const id = useId();
  const [tab, setTab] = useState<Tab>('Type');
  const [name, setName] = useState('');
  const [strokes, setStrokes] = useState<number[][]>([]);
  const [image, setImage] = useState<{ ready: Ready | null; url: string; error: string } | null>(null);
  const { editor } = request;

  const ready = (): Ready | null => {
    if (tab === 'Type') {
      const text = name.trim();
      return text ? { data: editor.getFromText(text, SIGNATURE_FONT), description: text } : null;
    }
    if (tab === 'Draw') {
      if (strokes.length === 0) return null;
      const data = editor.getDrawnSignature({
        curves: strokes.map((points) => ({ points })),
        thickness: PEN_WIDTH,
        ...PAD,
      });
      return data ? { data, description: 'Drawn signature' } : null;
    }
    return image?.ready ?? null;
  };
  const canAdd = tab === 'Type' ? name.trim() !== '' : tab === 'Draw' ? strokes.length > 0 : !!image?.ready;

  const cancel = () => {
    editor.remove();
    onDone();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    cancel();
  };
  const chooseImage = async (file: File | undefined) => {
    if (image) URL.revokeObjectURL(image.url);
    if (!file) return setImage(null);
    const url = URL.createObjectURL(file);
    try {
      const data = editor.getFromImage(await createImageBitmap(file));
      const description = file.name.replace(/\.[^.]+$/, '');
      setImage(
        data
          ? { ready: { data, description }, url, error: '' }
          : { ready: null, url, error: 'No signature found in this image.' },
      );
    } catch {
      setImage({ ready: null, url, error: 'This image cannot be read.' });
    }
  };

  return (
    <div className="absolute inset-0 z-10 flex items-center justify-center bg-slate-900/50 p-4">
      <form
        role="dialog"
        aria-modal="true"
        aria-labelledby={id}
        onKeyDown={onKeyDown}
        onSubmit={(e) => {
          e.preventDefault();
          const chosen = ready();
          if (!chosen) return;
          editor.addSignature(chosen.data, SIGNATURE_HEIGHT_PT, chosen.description, null);
          if (image) URL.revokeObjectURL(image.url);
          onDone();
        }}
        className="w-full max-w-md space-y-3 rounded-xl bg-white p-5 shadow-xl dark:bg-slate-900"
      >
        <h3 id={id} className="font-semibold text-slate-900 dark:text-white">
          Add a signature
        </h3>
        <div
          role="tablist"
          aria-label="How to sign"
          className="flex gap-1 border-b border-slate-200 dark:border-slate-700"
        >
          {TABS.map((t) => (
            <button
              key={t}
              type="button"
              role="tab"
              id={`${id}-${t}`}
              aria-selected={tab === t}
              aria-controls={`${id}-panel`}
              onClick={() => setTab(t)}
              className={`-mb-px min-h-8 border-b-2 px-3 text-sm font-medium ${
                tab === t
                  ? 'border-indigo-600 text-indigo-700 dark:text-indigo-300'
                  : 'border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-300'
              } ${focusRing}`}
            >
              {t}
            </button>
          ))}
        </div>
        <div id={`${id}-panel`} role="tabpanel" aria-labelledby={`${id}-${tab}`}>
          {tab === 'Type' ? (
            <input
              type="text"
              autoFocus
              aria-label="Type your signature"
              placeholder="Type your signature"
              value={name}
              onChange={(e) => setName(e.target.value)}
              className={`h-10 w-full rounded-md border border-slate-300 px-2 font-[cursive] text-xl italic dark:border-slate-600 dark:bg-slate-800 ${focusRing}`}
            />
          ) : tab === 'Draw' ? (
            <DrawPad strokes={strokes} onChange={setStrokes} />
          ) : (
            <div className="space-y-2">
              <label className={`${secondaryButton} cursor-pointer`}>
                Choose an image
                <input
                  type="file"
                  accept="image/png,image/jpeg,image/webp"
                  aria-label="Signature image"
                  className="sr-only"
                  onChange={(e) => void chooseImage(e.target.files?.[0])}
                />
              </label>
              {image ? (
                <img
                  src={image.url}
                  alt="The chosen signature image"
                  className="max-h-28 rounded border border-slate-200 bg-white object-contain dark:border-slate-700"
                />
              ) : null}
              {image?.error ? (
                <p role="alert" className="text-sm text-red-700 dark:text-red-300">
                  {image.error}
                </p>
              ) : null}
            </div>
          )}
        </div>
        <div className="flex justify-end gap-2">
          <button type="button" className={secondaryButton} onClick={cancel}>
            Cancel
          </button>
          <button type="submit" className={primaryButton} disabled={!canAdd}>
            Add
          </button>
        </div>
      </form>
    </div>
  );
}

/** A pad to draw a signature on with a mouse, pen or finger; each stroke is a flat list of points. */
function DrawPad({ strokes, onChange }: { strokes: number[][]; onChange: (strokes: number[][]) => void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const current = useRef<number[] | null>(null);
  /** The pointer in the pad's own coordinates (the pad may be drawn narrower on a small screen). */
  const at = (event: PointerEvent<HTMLCanvasElement>): [number, number] => {
    const box = event.currentTarget.getBoundingClientRect();
    return [
      ((event.clientX - box.left) * PAD.width) / box.width,
      ((event.clientY - box.top) * PAD.height) / box.height,
    ];
  };
  const lineTo = (points: number[]) => {
    const context = canvas.current?.getContext('2d');
    const n = points.length;
    if (!context || n < 4) return;
    context.lineWidth = PEN_WIDTH;
    context.lineCap = 'round';
    context.strokeStyle = '#0f172a';
    context.beginPath();
    context.moveTo(points[n - 4]!, points[n - 3]!);
    context.lineTo(points[n - 2]!, points[n - 1]!);
    context.stroke();
  };
  const clear = () => {
    canvas.current?.getContext('2d')?.clearRect(0, 0, PAD.width, PAD.height);
    onChange([]);
  };
  return (
    <div className="space-y-2">
      <canvas
        ref={canvas}
        width={PAD.width}
        height={PAD.height}
        role="img"
        aria-label="Draw your signature here"
        className="block w-[360px] max-w-full touch-none rounded-md border border-slate-300 bg-white dark:border-slate-600"
        onPointerDown={(event) => {
          event.currentTarget.setPointerCapture(event.pointerId);
          current.current = at(event);
        }}
        onPointerMove={(event) => {
          if (!current.current) return;
          current.current.push(...at(event));
          lineTo(current.current);
        }}
        onPointerUp={() => {
          const stroke = current.current;
          current.current = null;
          if (stroke && stroke.length >= 4) onChange([...strokes, stroke]);
        }}
      />
      <button type="button" className={secondaryButton} onClick={clear} disabled={strokes.length === 0}>
        Clear
      </button>
    </div>
  );
}
