// The viewer's texts fixed by the spec (§8), and the annotation editor modes and limits it names (§9).
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

// Spec §9's other editor limits are pdf.js's own: an undo/redo stack of 128 commands (CommandManager), moves of
// selected editors batched after a 1000 ms pause (AnnotationEditorUIManager), minimum editor size 16
// (AnnotationEditor.MIN_SIZE), images scaled to at most 0.75 of the page (StampEditor).

/** Spec §9: after the viewer's size changes, a fitted page is fitted again once it has been still this long. */
export const RESIZE_DEBOUNCE_MS = 200;

/** Signature height on the page in PDF points (what pdf.js's own signature dialog uses). */
export const SIGNATURE_HEIGHT_PT = 40;
