// Card previews already fetched, as object URLs by file id. The windowed grid unmounts cards that scroll away;
// with this cache a card that comes back shows its preview at once instead of fetching it again (the server
// answers previews with no-store). A file's preview never changes, so the id is the key. Least recently used
// entries beyond the cap are dropped and their URLs revoked, which bounds memory for very long lists. The cap
// is well above the 500 files the spec expects: scrolling through a list longer than the cap evicts every
// entry before it is reused.
export const MAX_CACHED_PREVIEWS = 1000;

const urls = new Map<string, string>();

export function cachedPreviewUrl(fileId: string): string | undefined {
  const url = urls.get(fileId);
  if (url !== undefined) {
    // Map keeps insertion order: re-inserting marks the entry as most recently used.
    urls.delete(fileId);
    urls.set(fileId, url);
  }
  return url;
}

export function rememberPreview(fileId: string, blob: Blob): string {
  const previous = urls.get(fileId);
  if (previous !== undefined) URL.revokeObjectURL(previous);
  urls.delete(fileId);
  const url = URL.createObjectURL(blob);
  urls.set(fileId, url);
  for (const [oldestId, oldestUrl] of urls) {
    if (urls.size <= MAX_CACHED_PREVIEWS) break;
    URL.revokeObjectURL(oldestUrl);
    urls.delete(oldestId);
  }
  return url;
}
