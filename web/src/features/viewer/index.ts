// The viewer feature's public face for other features (the dashboard opens files in it).
export { FileViewerDialog } from './FileViewerDialog.js';
