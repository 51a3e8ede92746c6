// The files feature's public face: what other features (the dashboard page, the viewer) may use. Everything
// else in features/files/ is its own (eslint.config.js refuses deep imports from other features).
export { CompareDialog, dividerPosition } from './components/CompareDialog.js';
export { ConfirmDialog } from './components/ConfirmDialog.js';
export { FileFinder } from './components/FileFinder.js';
export { FileListCard, StartRestorationButton, useAutoExpand } from './components/FileListCard.js';
export { UploadPanel } from './components/UploadPanel.js';
export { downloadFile, saveBlob } from './api/files-api.js';
export { useFilesController, type ConfirmAnswer, type ConfirmRequest } from './hooks/use-files-controller.js';
export { useRealtime } from './hooks/use-realtime.js';
export { originalsOf, restoredOf } from './logic/file-state.js';
export { isFiltered } from './logic/list-view.js';
export type { FileItem, FileKind } from './logic/model.js';
export { TEXTS } from './logic/texts.js';
