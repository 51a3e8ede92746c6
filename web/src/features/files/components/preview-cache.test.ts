// jsdom has no object URLs; these stand in for the browser's and record what was revoked.
let created = 0;
const revoked: string[] = [];
beforeEach(() => {
  created = 0;
  revoked.length = 0;
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => `blob:preview-${++created}`);
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url) => void revoked.push(url));
  // The cache is module state: every test starts with an empty one.
  vi.resetModules();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const freshCache = () => import('./preview-cache.js');
const blob = new Blob(['png']);

describe('preview cache', () => {
  it('returns the URL of a preview fetched before, and nothing for others', async () => {
    const { cachedPreviewUrl, rememberPreview } = await freshCache();
    const url = rememberPreview('a', blob);
    expect(cachedPreviewUrl('a')).toBe(url);
    expect(cachedPreviewUrl('never-fetched')).toBeUndefined();
  });

  it('replaces a preview fetched again and revokes the old URL', async () => {
    const { cachedPreviewUrl, rememberPreview } = await freshCache();
    const first = rememberPreview('b', blob);
    const second = rememberPreview('b', blob);
    expect(cachedPreviewUrl('b')).toBe(second);
    expect(revoked).toEqual([first]);
  });

  it('beyond the cap drops the least recently used preview and revokes its URL', async () => {
    const { MAX_CACHED_PREVIEWS, cachedPreviewUrl, rememberPreview } = await freshCache();
    const first = rememberPreview('file-0', blob);
    const second = rememberPreview('file-1', blob);
    for (let i = 2; i < MAX_CACHED_PREVIEWS; i++) rememberPreview(`file-${i}`, blob);
    expect(revoked).toEqual([]);
    // file-0 is used again, so file-1 is now the least recently used.
    expect(cachedPreviewUrl('file-0')).toBe(first);
    rememberPreview('one-more', blob);
    expect(revoked).toEqual([second]);
    expect(cachedPreviewUrl('file-1')).toBeUndefined();
    expect(cachedPreviewUrl('file-0')).toBe(first);
  });
});
