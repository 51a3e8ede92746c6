// The viewer's texts fixed by the spec (§8) and the annotation editor modes and limits it names (§9). The limits
// are pdf.js's own (its AnnotationEditorUIManager): listed here so the spec's numbers have one place to be read.
export const VIEWER_TEXTS = {
  loading: 'Loading PDF…',
  failed: 'Failed to load PDF file',
  noFile: 'No PDF file specified',
  imageFailed: 'Failed to load image',
  download: 'Download',
  close: 'Close',
} as const;

/** The editor modes of spec §9, by pdf.js's AnnotationEditorType numbers, with the toolbar's labels. */
export const EDITOR_MODES = [
  { key: 'none', type: 0, label: 'Select' },
  { key: 'freetext', type: 3, label: 'Text' },
  { key: 'highlight', type: 9, label: 'Highlight' },
  { key: 'stamp', type: 13, label: 'Image' },
  { key: 'ink', type: 15, label: 'Draw' },
  { key: 'signature', type: 101, label: 'Signature' },
] as const;

export type EditorModeKey = (typeof EDITOR_MODES)[number]['key'];

/** Spec §9, as pdf.js implements them (CommandManager, AnnotationEditor, resize observer). */
export const EDITOR_LIMITS = {
  undoRedoCommands: 128,
  moveBatchPauseMs: 1000,
  minimumEditorSize: 16,
  signatureOrStampScale: 0.75,
  resizeDebounceMs: 200,
} as const;

/** Signature height on the page in PDF points (what pdf.js's own signature dialog uses). */
export const SIGNATURE_HEIGHT_PT = 40;
