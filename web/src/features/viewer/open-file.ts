// What the viewer needs to know about a file before opening it.
import type { FileItem } from '../files/index.js';

export const isPdfFile = (file: Pick<FileItem, 'filename' | 'file_type'>): boolean =>
  file.file_type.toLowerCase() === 'pdf' || file.filename.toLowerCase().endsWith('.pdf');
