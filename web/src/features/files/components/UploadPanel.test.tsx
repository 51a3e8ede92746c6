import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { resetConfigForTests } from '../../../config/runtime.js';
import { json, startApi } from '../../../test/helpers.js';
import { UploadPanel } from './UploadPanel.js';

const file = (name: string, size = 1000, type = 'application/pdf') =>
  new File([new Uint8Array(size)], name, { type });

function choose(files: File[]) {
  fireEvent.change(screen.getByTestId('file-input'), { target: { files } });
}

type Api = Awaited<ReturnType<typeof startApi>>;
let api: Api | undefined;

// jsdom's XMLHttpRequest enforces CORS like a browser: the test page and the API are on different origins.
async function serve(handler: Parameters<typeof startApi>[0]) {
  api = await startApi((req, res) => {
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-allow-headers', 'authorization');
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    handler(req, res);
  });
  window.API_BASE_URL = api.url;
  resetConfigForTests();
  window.localStorage.setItem('google_token', 'token-1');
  return api;
}

const posts = (server: Api) => server.requests.filter((r) => r.method === 'POST');

afterEach(async () => {
  await api?.close();
  api = undefined;
  delete window.API_BASE_URL;
  resetConfigForTests();
});

describe('UploadPanel', () => {
  it('starts collapsed and expands from its header', async () => {
    render(<UploadPanel onUploaded={() => undefined} />);
    expect(screen.getByText('Click to expand and start restoring your documents')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /Upload Documents/ }));
    expect(screen.getByText('Drag & drop files or click to browse')).toBeInTheDocument();
    expect(screen.getByText('Upload your documents')).toBeInTheDocument();
    expect(screen.getByText('Click here or drag and drop your files')).toBeInTheDocument();
  });

  it('reports invalid files by name, keeps the valid ones and replaces same-name files', () => {
    render(<UploadPanel onUploaded={() => undefined} />);
    choose([
      file('a.pdf'),
      file('notes.txt'),
      file('huge.png', 10 * 1024 * 1024 + 1, 'image/png'),
      file('b.JPG'),
    ]);
    const errors = screen.getByTestId('upload-rejected');
    expect(errors).toHaveTextContent('notes.txt: Invalid file type. Please select: .pdf, .png, .jpg, .jpeg');
    expect(errors).toHaveTextContent('huge.png: File too large. Maximum size: 10 MB');
    expect(screen.getByText('2 Files Selected')).toBeInTheDocument();
    expect(screen.getByText('Selected Files (2)')).toBeInTheDocument();
    expect(screen.getByText('2 file(s) ready for upload')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Clear All' }));
    expect(screen.queryByTestId('upload-list')).not.toBeInTheDocument();
    // Picking again replaces the selection; a single selected file can be removed.
    choose([file('b.JPG'), file('c.pdf')]);
    choose([file('a.pdf', 2048)]);
    expect(screen.getByText('File Selected')).toBeInTheDocument();
    expect(screen.getByText('(2 KB)')).toBeInTheDocument();
    expect(screen.queryByText('b.JPG')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Remove a.pdf' }));
    expect(screen.queryByText('File Selected')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Upload File' })).not.toBeInTheDocument();
  });

  it('uploads one file with the Bearer token and shows completion', async () => {
    const server = await serve((_req, res) => json(res, 200, { file_id: 'f1', job_id: 'j1' }));
    const onUploaded = vi.fn();
    render(<UploadPanel onUploaded={onUploaded} />);
    choose([file('scan.pdf', 4000)]);
    expect(screen.getByText('File Selected')).toBeInTheDocument();
    expect(screen.getByText('File is ready for upload')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Upload File' }));
    await screen.findByText('Upload Complete!');
    expect(screen.getByText('Your file has been uploaded successfully')).toBeInTheDocument();
    expect(onUploaded).toHaveBeenCalledTimes(1);
    expect(posts(server)[0]?.path).toBe('/api/v1/files/upload');
    expect(posts(server)[0]?.headers.authorization).toBe('Bearer token-1');
    expect(posts(server)[0]?.body).toContain('name="file"; filename="scan.pdf"');
  });

  it('batch-uploads several files, marks rejected ones failed and retries them with the one Try Again', async () => {
    const server = await serve((req, res) => {
      if (req.path.endsWith('/files/batch-upload'))
        json(res, 200, {
          batch_job_id: 'b1',
          files: [{ file_id: 'f1', filename: 'a.pdf' }],
          rejected: [{ filename: 'b.png', error: 'Unreadable image' }],
        });
      else json(res, 200, { file_id: 'f2', job_id: 'j2' });
    });
    render(<UploadPanel onUploaded={() => undefined} />);
    choose([file('a.pdf'), file('b.png', 100, 'image/png')]);
    await userEvent.click(screen.getByRole('button', { name: 'Upload 2 Files' }));
    const alert = await screen.findByText('Upload Error');
    expect(alert.parentElement).toHaveTextContent('b.png: Unreadable image');
    expect(posts(server)[0]?.body.match(/name="files"/g)).toHaveLength(2);
    const list = screen.getByTestId('upload-list');
    expect(within(list).getByText('Unreadable image')).toBeInTheDocument();
    // One retry control: no per-file Retry and no upload button beside Try Again.
    expect(screen.queryByRole('button', { name: 'Retry b.png' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Upload (File|\d+ Files)$/ })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    await screen.findByText('Upload Complete!');
    // Only b.png went up again; the list is cleared after completion.
    expect(posts(server)).toHaveLength(2);
    expect(posts(server)[1]?.path).toBe('/api/v1/files/upload');
    expect(posts(server)[1]?.body).toContain('filename="b.png"');
    expect(screen.queryByTestId('upload-list')).not.toBeInTheDocument();
  });

  it('shows the server error in the Upload Error box; Try Again sends the files again', async () => {
    const server = await serve((_req, res) => json(res, 413, { detail: 'File too large for this plan' }));
    render(<UploadPanel onUploaded={() => undefined} />);
    choose([file('a.pdf'), file('b.pdf')]);
    await userEvent.click(screen.getByRole('button', { name: 'Upload 2 Files' }));
    await screen.findByText('Upload Error');
    expect(screen.getAllByText('File too large for this plan').length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    // Try Again sends both files again at once; the server refuses them again.
    await screen.findByText('Upload Error');
    expect(posts(server)).toHaveLength(2);
  });

  it('sends more than 50 files in several batch requests of at most 50', async () => {
    const server = await serve((req, res) => {
      const names = [...req.body.matchAll(/filename="([^"]+)"/g)].map((m) => m[1]);
      json(res, 200, { batch_job_id: 'b', files: names.map((n) => ({ filename: n })), rejected: [] });
    });
    render(<UploadPanel onUploaded={() => undefined} />);
    choose(Array.from({ length: 60 }, (_, i) => file(`page-${i}.png`, 10, 'image/png')));
    await userEvent.click(screen.getByRole('button', { name: 'Upload 60 Files' }));
    await screen.findByText('All 60 files have been uploaded successfully', {}, { timeout: 20_000 });
    const batches = posts(server).map((r) => r.body.match(/name="files"/g)?.length);
    expect(batches).toEqual([50, 10]);
  }, 30_000);
});
