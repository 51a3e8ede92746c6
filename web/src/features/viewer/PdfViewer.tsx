// A PDF in pdf.js's own viewer (spec §8, §9): pages with their text layer, zoom, search through the text layer,
// pdf.js's password prompt texts for an encrypted file, and its annotation editor (none, freetext, highlight, stamp,
// ink, signature) with undo/redo. Download saves the document with its annotations (pdfDocument.saveDocument()).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { createPortal } from 'react-dom';
import { focusRing, primaryButton } from '../../components/ui/styles.js';
import { saveBlob } from '../files/index.js';
import { PasswordPrompt } from './PasswordPrompt.js';
import { SignaturePrompt, createSignatureManager, type SignatureRequest } from './signature.js';
import { loadPdfViewer } from './pdfjs-viewer.js';
import { debounce } from './debounce.js';
import { EDITOR_MODES, RESIZE_DEBOUNCE_MS, VIEWER_TEXTS, type EditorModeKey } from './texts.js';

type PdfjsLib = Awaited<ReturnType<typeof loadPdfViewer>>['pdfjs'];
type PdfDocument = Awaited<ReturnType<PdfjsLib['getDocument']>['promise']>;
type ViewerLib = Awaited<ReturnType<typeof loadPdfViewer>>['viewerLib'];
type Viewer = InstanceType<ViewerLib['PDFViewer']>;
type Bus = InstanceType<ViewerLib['EventBus']>;

interface Session {
  pdfjs: PdfjsLib;
  viewer: Viewer;
  eventBus: Bus;
  doc: PdfDocument;
}

type Status = 'loading' | 'ready' | 'failed';

interface PasswordRequest {
  message: string;
  answer: (password: string | null) => void;
}

interface FindResult {
  current: number;
  total: number;
  notFound: boolean;
}

const toolButton = `inline-flex h-8 min-w-8 items-center justify-center rounded-md px-2 text-sm font-medium text-slate-700 hover:bg-slate-200 disabled:opacity-40 aria-pressed:bg-indigo-600 aria-pressed:text-white dark:text-slate-200 dark:hover:bg-slate-700 ${focusRing}`;

export function PdfViewer({
  data,
  filename,
  actions,
}: {
  data: Uint8Array | null;
  filename: string;
  /** Where the Download button goes (the dialog's header); in the toolbar when absent. */
  actions?: HTMLElement | null;
}) {
  const container = useRef<HTMLDivElement>(null);
  const viewerDiv = useRef<HTMLDivElement>(null);
  const session = useRef<Session | null>(null);
  const [status, setStatus] = useState<Status>('loading');
  const [password, setPassword] = useState<PasswordRequest | null>(null);
  const [signature, setSignature] = useState<SignatureRequest | null>(null);
  const [page, setPage] = useState(1);
  const [pages, setPages] = useState(0);
  const [scale, setScale] = useState(1);
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<FindResult | null>(null);
  const [mode, setMode] = useState<EditorModeKey>('none');
  // The mode pdf.js reports it is in, null until the first page's editor layer is there. pdf.js builds its editor
  // after the document opens and enters a mode after re-rendering the pages: a mode or an image asked for before
  // then is lost.
  const [activeMode, setActiveMode] = useState<EditorModeKey | null>(null);
  const [undoRedo, setUndoRedo] = useState({ undo: false, redo: false });
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!data) return;
    let cancelled = false;
    let loadingTask: ReturnType<PdfjsLib['getDocument']> | null = null;
    let resizeObserver: ResizeObserver | null = null;
    let stopRefit = () => {};
    setStatus('loading');
    setActiveMode(null);
    (async () => {
      const { pdfjs, viewerLib } = await loadPdfViewer();
      if (cancelled || !container.current || !viewerDiv.current) return;
      const eventBus = new viewerLib.EventBus();
      const linkService = new viewerLib.PDFLinkService({ eventBus });
      const findController = new viewerLib.PDFFindController({ eventBus, linkService });
      const l10n = new viewerLib.GenericL10n(undefined);
      const viewer = new viewerLib.PDFViewer({
        container: container.current,
        viewer: viewerDiv.current,
        eventBus,
        linkService,
        findController,
        l10n,
        annotationEditorMode: pdfjs.AnnotationEditorType.NONE,
        // Signatures are typed in our own small dialog (pdf.js's full one belongs to its app, not its components).
        signatureManager: createSignatureManager(setSignature),
      } as ConstructorParameters<ViewerLib['PDFViewer']>[0]);
      linkService.setViewer(viewer);
      // With an l10n of its own, the viewer leaves translating to its owner (pdf.js's app does the same): the
      // texts of what pdf.js adds later, such as an editor's "Remove" button, come from this watched root.
      void l10n.translate(container.current);

      eventBus.on('pagesinit', () => (viewer.currentScaleValue = 'page-width'));
      // A fitted page is fitted again when the window (and so the viewer) changes size; a chosen zoom stays.
      const refit = debounce(() => {
        const value = viewer.currentScaleValue;
        if (value === 'page-width' || value === 'page-fit' || value === 'auto')
          viewer.currentScaleValue = value;
      }, RESIZE_DEBOUNCE_MS);
      resizeObserver = new ResizeObserver(refit.call);
      resizeObserver.observe(container.current);
      stopRefit = refit.cancel;
      eventBus.on('pagechanging', (e: { pageNumber: number }) => setPage(e.pageNumber));
      eventBus.on('scalechanging', (e: { scale: number }) => setScale(e.scale));
      eventBus.on('updatefindmatchescount', (e: { matchesCount: { current: number; total: number } }) =>
        setFound({ ...e.matchesCount, notFound: e.matchesCount.total === 0 }),
      );
      eventBus.on(
        'updatefindcontrolstate',
        (e: { state: number; matchesCount: { current: number; total: number } }) =>
          setFound({
            ...e.matchesCount,
            notFound: e.state === viewerLib.FindState.NOT_FOUND,
          }),
      );
      eventBus.on('annotationeditormodechanged', (e: { mode: number }) => {
        const known = EDITOR_MODES.find((m) => m.type === e.mode);
        if (!known) return;
        setMode(known.key);
        setActiveMode(known.key);
      });
      eventBus.on(
        'annotationeditorstateschanged',
        (e: { details: { hasSomethingToUndo?: boolean; hasSomethingToRedo?: boolean } }) =>
          setUndoRedo({ undo: !!e.details.hasSomethingToUndo, redo: !!e.details.hasSomethingToRedo }),
      );

      // A copy: pdf.js hands the buffer to its worker, and the caller keeps its bytes.
      loadingTask = pdfjs.getDocument({ data: data.slice(), isEvalSupported: false });
      loadingTask.onPassword = (update: (password: string) => void, reason: number) => {
        const key =
          reason === pdfjs.PasswordResponses.INCORRECT_PASSWORD
            ? 'pdfjs-password-invalid'
            : 'pdfjs-password-label';
        void l10n.get(key, null, '').then((message: string) => {
          if (cancelled) return;
          setPassword({
            message,
            answer: (value) => {
              setPassword(null);
              if (value === null) void loadingTask?.destroy();
              else update(value);
            },
          });
        });
      };
      const doc = await loadingTask.promise;
      if (cancelled) {
        void doc.destroy();
        return;
      }
      viewer.setDocument(doc);
      linkService.setDocument(doc, null);
      session.current = { pdfjs, viewer, eventBus, doc };
      setPages(doc.numPages);
      setPage(1);
      setStatus('ready');
    })().catch((error: unknown) => {
      console.error(VIEWER_TEXTS.failed, error);
      if (!cancelled) setStatus('failed');
    });
    return () => {
      cancelled = true;
      resizeObserver?.disconnect();
      stopRefit();
      const current = session.current;
      session.current = null;
      setPassword(null);
      setSignature(null);
      if (current) {
        // As pdf.js's own viewer closes a document: pages, find state and editors go, then the document.
        current.viewer.setDocument(null as unknown as PdfDocument);
        void current.doc.destroy();
      } else {
        void loadingTask?.destroy();
      }
    };
  }, [data]);

  // The first Enter on a new query starts a search (first match); the next ones go to the following match.
  const searched = useRef('');
  const find = (findPrevious = false) => {
    const type = searched.current === query ? 'again' : '';
    searched.current = query;
    session.current?.eventBus.dispatch('find', {
      source: null,
      type,
      query,
      caseSensitive: false,
      entireWord: false,
      highlightAll: true,
      findPrevious,
      matchDiacritics: false,
    });
  };
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    if (query.trim()) find();
  };

  const chooseMode = (key: EditorModeKey) => {
    const viewer = session.current?.viewer;
    const type = EDITOR_MODES.find((m) => m.key === key)?.type;
    if (!viewer || type === undefined) return;
    viewer.annotationEditorMode = { mode: type };
    setMode(key);
  };
  // Images and signatures are not placed by a click on the page: pdf.js adds them at the page's centre on request.
  const addEditor = () => {
    const current = session.current;
    current?.eventBus.dispatch('switchannotationeditorparams', {
      source: null,
      type: current.pdfjs.AnnotationEditorParamsType.CREATE,
      value: undefined,
    });
  };
  const editingAction = (name: 'undo' | 'redo') =>
    session.current?.eventBus.dispatch('editingaction', { source: null, name });

  const goTo = (n: number) => {
    const viewer = session.current?.viewer;
    if (viewer && n >= 1 && n <= pages) viewer.currentPageNumber = n;
  };

  const download = async () => {
    const doc = session.current?.doc;
    if (!doc) return;
    setSaving(true);
    try {
      const bytes = await doc.saveDocument();
      saveBlob(new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), filename);
    } catch (error) {
      console.error(error);
    } finally {
      setSaving(false);
    }
  };

  const ready = status === 'ready';
  const downloadButton = (
    <button
      type="button"
      className={`${primaryButton} h-8 py-0`}
      disabled={!ready || saving}
      onClick={() => void download()}
    >
      {VIEWER_TEXTS.download}
    </button>
  );
  return (
    <div className="flex h-full min-h-0 flex-col" data-testid="pdf-viewer" data-status={status}>
      <div
        role="toolbar"
        aria-label="PDF viewer"
        className="flex flex-wrap items-center gap-1 border-b border-slate-200 bg-slate-50 px-3 py-2 dark:border-slate-700 dark:bg-slate-800"
      >
        <button
          type="button"
          className={toolButton}
          aria-label="Previous page"
          disabled={!ready || page <= 1}
          onClick={() => goTo(page - 1)}
        >
          ‹
        </button>
        <span
          className="px-1 text-sm tabular-nums text-slate-700 dark:text-slate-200"
          data-testid="page-number"
        >
          {ready ? `Page ${page} of ${pages}` : ''}
        </span>
        <button
          type="button"
          className={toolButton}
          aria-label="Next page"
          disabled={!ready || page >= pages}
          onClick={() => goTo(page + 1)}
        >
          ›
        </button>
        <span className="mx-1 h-5 w-px bg-slate-300 dark:bg-slate-600" aria-hidden="true" />
        <button
          type="button"
          className={toolButton}
          aria-label="Zoom out"
          disabled={!ready}
          onClick={() => session.current?.viewer.decreaseScale()}
        >
          −
        </button>
        <span
          className="w-12 text-center text-sm tabular-nums text-slate-700 dark:text-slate-200"
          data-testid="zoom"
        >
          {Math.round(scale * 100)}%
        </span>
        <button
          type="button"
          className={toolButton}
          aria-label="Zoom in"
          disabled={!ready}
          onClick={() => session.current?.viewer.increaseScale()}
        >
          +
        </button>
        <button
          type="button"
          className={toolButton}
          aria-label="Fit width"
          disabled={!ready}
          onClick={() => session.current && (session.current.viewer.currentScaleValue = 'page-width')}
        >
          Fit
        </button>
        <span className="mx-1 h-5 w-px bg-slate-300 dark:bg-slate-600" aria-hidden="true" />
        <form role="search" onSubmit={onSearch} className="flex items-center gap-1">
          <input
            type="search"
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setFound(null);
            }}
            placeholder="Find in document…"
            aria-label="Find in document"
            disabled={!ready}
            className={`h-8 w-32 rounded-md border border-slate-300 bg-white px-2 text-sm dark:border-slate-600 dark:bg-slate-900 ${focusRing}`}
          />
          <button
            type="button"
            className={toolButton}
            aria-label="Previous match"
            disabled={!ready || !query.trim()}
            onClick={() => find(true)}
          >
            ↑
          </button>
          <button
            type="submit"
            className={toolButton}
            aria-label="Next match"
            disabled={!ready || !query.trim()}
          >
            ↓
          </button>
          <span
            role="status"
            className="min-w-16 text-xs text-slate-600 dark:text-slate-300"
            data-testid="find-result"
          >
            {found ? (found.notFound ? 'Phrase not found' : `${found.current} of ${found.total}`) : ''}
          </span>
        </form>
        <span className="mx-1 h-5 w-px bg-slate-300 dark:bg-slate-600" aria-hidden="true" />
        <div role="group" aria-label="Annotation mode" className="flex items-center gap-0.5">
          {EDITOR_MODES.map((m) => (
            <button
              key={m.key}
              type="button"
              className={toolButton}
              aria-pressed={mode === m.key}
              disabled={!ready || activeMode === null}
              onClick={() => chooseMode(m.key)}
            >
              {m.label}
            </button>
          ))}
        </div>
        {mode === 'stamp' || mode === 'signature' ? (
          <button
            type="button"
            className={toolButton}
            disabled={!ready || activeMode !== mode}
            onClick={addEditor}
          >
            {mode === 'stamp' ? 'Add image' : 'Add signature'}
          </button>
        ) : null}
        <button
          type="button"
          className={toolButton}
          disabled={!ready || !undoRedo.undo}
          onClick={() => editingAction('undo')}
        >
          Undo
        </button>
        <button
          type="button"
          className={toolButton}
          disabled={!ready || !undoRedo.redo}
          onClick={() => editingAction('redo')}
        >
          Redo
        </button>
        {actions ? createPortal(downloadButton, actions) : downloadButton}
      </div>
      <div className="relative min-h-0 flex-1 bg-slate-200 dark:bg-slate-950">
        {/* pdf.js requires an absolutely positioned scrolling container. */}
        <div ref={container} className="absolute inset-0 overflow-auto" data-testid="pdf-scroll">
          <div ref={viewerDiv} className="pdfViewer" />
        </div>
        {!data ? (
          <p role="alert" className="absolute inset-x-0 top-10 text-center text-sm text-slate-600">
            {VIEWER_TEXTS.noFile}
          </p>
        ) : status === 'loading' && !password ? (
          <p role="status" className="absolute inset-x-0 top-10 text-center text-sm text-slate-600">
            {VIEWER_TEXTS.loading}
          </p>
        ) : status === 'failed' ? (
          <p role="alert" className="absolute inset-x-0 top-10 text-center text-sm text-red-600">
            {VIEWER_TEXTS.failed}
          </p>
        ) : null}
      </div>
      {password ? (
        <PasswordPrompt key={password.message} message={password.message} onAnswer={password.answer} />
      ) : null}
      {signature ? <SignaturePrompt request={signature} onDone={() => setSignature(null)} /> : null}
    </div>
  );
}
