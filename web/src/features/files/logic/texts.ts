// Every user-visible text of the dashboard that the spec fixes (§2, §4, §5, §8), in one place so tests can find it.
import { UPLOAD_EXTENSIONS } from '@folio/shared';
import type { RestorationFailure } from '../../../api/types.js';

export const plural = (n: number, one: string, many: string): string => (n === 1 ? one : many);

export const TEXTS = {
  upload: {
    title: 'Upload Documents',
    collapsedHint: 'Click to expand and start restoring your documents',
    expandedHint: 'Drag & drop files or click to browse',
    headingIdle: 'Upload your documents',
    headingDragging: 'Drop your files here',
    headingOne: 'File Selected',
    idleText: 'Click here or drag and drop your files',
    draggingText: 'Release to upload',
    chooseFiles: 'Choose Files',
    fileReady: 'File is ready for upload',
    pdfPreviewFailed: 'Failed to load PDF preview',
    pdfPreviewStillValid: 'The file is still valid for upload',
    pdfLoading: 'Loading PDF…',
    clearAll: 'Clear All',
    complete: 'Upload Complete!',
    completeOne: 'Your file has been uploaded successfully',
    errorTitle: 'Upload Error',
    tryAgain: 'Try Again',
    failedFallback: 'Upload failed',
    startRestoration: 'Start AI Restoration',
    processing: 'Processing...',
  },
  list: {
    subtitle: 'Manage your files below',
    collapsedHint: 'Click to expand and view files',
    loading: 'Loading files...',
    empty: 'No files available yet.',
    restoredEmpty: 'No restored files yet',
    restoredEmptyHint: 'Select files from your uploaded documents and click "AI Restoration" to get started.',
    originalTitle: 'Original Files',
    restoredTitle: 'Restored Files',
    selectAll: 'Select All',
    deselectAll: 'Deselect All',
    downloadSelected: 'Download Selected',
    deleteSelected: 'Delete Selected',
  },
  card: {
    generatingPreview: 'Generating preview…',
    noPreview: 'No preview available',
    previewUnavailable: 'Preview unavailable',
    previewUnavailableHint: 'Unable to load preview',
    created: 'Created',
    updated: 'Updated',
    originalFilename: 'Original filename',
    creditCost: 'Credit Cost',
    expiresToday: 'Expires today',
    compare: 'Compare',
  },
  dialog: {
    confirm: 'Confirm',
    delete: 'Delete',
    cancel: 'Cancel',
    ok: 'OK',
    deleteFile: 'Delete file?',
    cannotBeUndone: 'This action cannot be undone.',
    deleteSelected: 'Delete selected files?',
    deleteRestored: 'Delete restored file?',
    deleteSelectedRestored: 'Delete selected restored files?',
    startRestoration: 'Start AI Restoration?',
  },
  connection: {
    lost: 'Connection lost. Attempting to reconnect...',
    restored: 'Reconnected to server successfully.',
  },
  errors: {
    noFilesSelected: 'No files selected for download',
  },
} as const;

export const filesSelectedHeading = (n: number): string =>
  n === 1 ? TEXTS.upload.headingOne : `${n} Files Selected`;
export const selectedFilesTitle = (n: number): string => `Selected Files (${n})`;
// The spec writes these texts with a literal "(s)" (the backend's 402 detail uses the same words).
export const filesReady = (n: number): string => `${n} file(s) ready for upload`;
export const uploadButton = (n: number): string => (n === 1 ? 'Upload File' : `Upload ${n} Files`);
export const uploadingLabel = (n: number): string =>
  n === 1 ? 'Uploading file...' : `Uploading ${n} files...`;
export const uploadCompleteText = (n: number): string =>
  n === 1 ? TEXTS.upload.completeOne : `All ${n} files have been uploaded successfully`;
export const pageOfText = (n: number): string => `Page 1 of ${n}`;

export const extensionList = (): string => UPLOAD_EXTENSIONS.join(', ');
export const invalidTypeText = (): string => `Invalid file type. Please select: ${extensionList()}`;
export const tooLargeText = (formattedMax: string): string => `File too large. Maximum size: ${formattedMax}`;

export const countBadge = (n: number): string => `${n} ${plural(n, 'file', 'files')}`;
export const creditsText = (n: number): string => `${n} ${plural(n, 'credit', 'credits')}`;
export const restoreConfirmText = (files: number, cost: number): string =>
  `You are about to restore ${files} file(s). This will cost ${cost} credit(s). Do you want to proceed?`;
export const insufficientCreditsText = (needed: number, have: number): string =>
  `You need ${needed} credit(s) but only have ${have}. Please purchase more credits to continue.`;

/** Select-all toggle label: none selected, some selected, all selected. */
export function selectAllLabel(selected: number, total: number): string {
  if (total > 0 && selected >= total) return TEXTS.list.deselectAll;
  if (selected > 0) return `${TEXTS.list.selectAll} (${selected} of ${total} selected)`;
  return TEXTS.list.selectAll;
}

export const progressPlaceholderName = (current: number, total: number, name: string): string =>
  `Processing page ${current}/${total}: ${name}`;

/** The restore dialog when some selected originals already have a restored version (paying twice). */
export const alreadyRestoredText = (already: number, of: number): string =>
  already === of
    ? `${of === 1 ? 'This file already has' : `All ${of} files already have`} a restored version.`
    : `${already} of the ${of} selected files already ${plural(already, 'has', 'have')} a restored version.`;
export const leaveOutLabel = (rest: number, cost: number): string =>
  `Leave them out (${rest} ${plural(rest, 'file', 'files')}, ${cost} ${plural(cost, 'credit', 'credits')})`;

const reasonOf = (reason: string): string => reason.trim().replace(/\.+$/, '') || 'unknown error';
export const startFailedText = (reason: string): string =>
  `Restoration could not start: ${reasonOf(reason)}. No credits were used.`;
/** What a restoration that fell short says on its cards: why, and the credits the server gave back. */
export function restorationFailureText(failure: RestorationFailure): string {
  const n = failure.credits_refunded;
  const refund = n > 0 ? ` ${n} ${plural(n, 'credit was', 'credits were')} returned.` : '';
  const what =
    failure.outcome === 'failed'
      ? 'Restoration failed'
      : `${failure.failed_pages} of ${failure.total_pages} pages could not be restored`;
  return `${what}: ${reasonOf(failure.reason)}.${refund}`;
}
