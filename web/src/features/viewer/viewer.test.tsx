import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { resetConfigForTests } from '../../config/runtime.js';
import { startApi } from '../../test/helpers.js';
import { dividerPosition, type FileItem } from '../files/index.js';
import { FileViewerDialog } from './FileViewerDialog.js';
import { PasswordPrompt } from './PasswordPrompt.js';
import { isPdfFile } from './open-file.js';
import { debounce } from './debounce.js';
import { EDITOR_MODES, RESIZE_DEBOUNCE_MS, VIEWER_TEXTS } from './texts.js';
import { fitZoom, zoomIn, zoomOut, MAX_ZOOM, MIN_ZOOM } from './zoom.js';

const fileItem = (filename: string, file_type: string): FileItem => ({
  id: '3f1c2a9e-0000-4000-8000-000000000001',
  filename,
  file_type,
  file_size: 1000,
  status: 'processed',
  type: 'restored',
  original_filename: null,
  page_count: 1,
  credit_cost: null,
  days_remaining: 30,
  preview_available: false,
  created_at: '2026-11-24T00:00:00Z',
  updated_at: '2026-11-24T00:00:00Z',
  original_file_id: null,
  job_id: null,
});

describe('viewer texts and constants (spec §8, §9)', () => {
  it('has the spec texts and the six editor modes', () => {
    expect(VIEWER_TEXTS.loading).toBe('Loading PDF…');
    expect(VIEWER_TEXTS.failed).toBe('Failed to load PDF file');
    expect(VIEWER_TEXTS.noFile).toBe('No PDF file specified');
    expect(EDITOR_MODES.map((m) => m.key)).toEqual([
      'none',
      'freetext',
      'highlight',
      'stamp',
      'ink',
      'signature',
    ]);
    expect(RESIZE_DEBOUNCE_MS).toBe(200);
  });

  it('tells PDFs from images by type or name', () => {
    expect(isPdfFile(fileItem('scan.PDF', 'bin'))).toBe(true);
    expect(isPdfFile(fileItem('scan', 'pdf'))).toBe(true);
    expect(isPdfFile(fileItem('photo.jpg', 'jpg'))).toBe(false);
  });
});

describe('debounce', () => {
  afterEach(() => vi.useRealTimers());

  it('calls once the calls have stopped for the delay, and not after cancel', () => {
    vi.useFakeTimers();
    const fn = vi.fn();
    const refit = debounce(fn, RESIZE_DEBOUNCE_MS);
    refit.call();
    vi.advanceTimersByTime(150);
    refit.call();
    vi.advanceTimersByTime(150);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(50);
    expect(fn).toHaveBeenCalledTimes(1);
    refit.call();
    refit.cancel();
    vi.advanceTimersByTime(1000);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});

describe('zoom', () => {
  it('fits large images into the box and leaves small ones at full size', () => {
    expect(fitZoom({ width: 2000, height: 1000 }, { width: 1000, height: 1000 })).toBe(0.5);
    expect(fitZoom({ width: 1000, height: 4000 }, { width: 1000, height: 1000 })).toBe(0.25);
    expect(fitZoom({ width: 300, height: 200 }, { width: 1000, height: 1000 })).toBe(1);
    expect(fitZoom({ width: 0, height: 0 }, { width: 1000, height: 1000 })).toBe(1);
  });

  it('steps by a quarter within its bounds', () => {
    expect(zoomIn(1)).toBe(1.25);
    expect(zoomOut(1.25)).toBe(1);
    expect(zoomIn(MAX_ZOOM)).toBe(MAX_ZOOM);
    expect(zoomOut(MIN_ZOOM)).toBe(MIN_ZOOM);
  });
});

describe('compare divider', () => {
  it('follows the pointer across the image, clamped to its edges', () => {
    const rect = { left: 100, width: 400 };
    expect(dividerPosition(200, rect)).toBe(25);
    expect(dividerPosition(300, rect)).toBe(50);
    expect(dividerPosition(50, rect)).toBe(0);
    expect(dividerPosition(900, rect)).toBe(100);
    expect(dividerPosition(300, { left: 0, width: 0 })).toBe(50);
  });
});

describe('PasswordPrompt', () => {
  it('answers with the typed password, or gives up on Cancel and Escape without closing the viewer', async () => {
    const onAnswer = vi.fn();
    const onDocumentEscape = vi.fn();
    document.addEventListener('keydown', onDocumentEscape);
    render(<PasswordPrompt message="Enter the password to open this PDF file." onAnswer={onAnswer} />);
    const input = screen.getByLabelText('Enter the password to open this PDF file.', { selector: 'input' });
    expect(input).toHaveFocus();
    await userEvent.type(input, 'user{Enter}');
    expect(onAnswer).toHaveBeenLastCalledWith('user');
    await userEvent.keyboard('{Escape}');
    expect(onAnswer).toHaveBeenLastCalledWith(null);
    expect(onDocumentEscape.mock.calls.filter(([e]) => (e as KeyboardEvent).key === 'Escape')).toHaveLength(
      0,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onAnswer).toHaveBeenCalledTimes(3);
    document.removeEventListener('keydown', onDocumentEscape);
  });
});

describe('FileViewerDialog', () => {
  let api: Awaited<ReturnType<typeof startApi>> | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
    delete window.API_BASE_URL;
    resetConfigForTests();
  });

  it('says when no file is given', () => {
    render(<FileViewerDialog file={undefined} onClose={() => undefined} />);
    expect(screen.getByRole('alert')).toHaveTextContent('No PDF file specified');
  });

  it('shows Loading PDF… while the file downloads and Failed to load PDF file when it cannot', async () => {
    let answer: (() => void) | undefined;
    api = await startApi((req, res) => {
      // jsdom enforces CORS like a browser: the test page and the API are on different origins.
      res.setHeader('access-control-allow-origin', '*');
      res.setHeader('access-control-allow-headers', 'authorization');
      if (req.method === 'OPTIONS') {
        res.writeHead(204).end();
        return;
      }
      answer = () =>
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"detail":"File not found"}');
    });
    window.API_BASE_URL = api.url;
    resetConfigForTests();
    const onClose = vi.fn();
    render(<FileViewerDialog file={fileItem('minutes.pdf', 'pdf')} onClose={onClose} />);
    expect(screen.getByRole('dialog', { name: 'minutes.pdf' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading PDF…');
    await waitFor(() => expect(answer).toBeDefined());
    answer?.();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load PDF file');
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
