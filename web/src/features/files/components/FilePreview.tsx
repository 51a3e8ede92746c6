// Card preview (spec §2 "File card"): fetched only once the card scrolls near the viewport and the server says a
// preview exists, then kept in the preview cache for when the card is mounted again; texts for pending, none
// and failed previews.
import { useEffect, useRef, useState } from 'react';
import { fetchPreview } from '../api/files-api.js';
import type { FileItem } from '../logic/model.js';
import { TEXTS } from '../logic/texts.js';
import { cachedPreviewUrl, rememberPreview } from './preview-cache.js';

type PreviewState = 'waiting' | 'loading' | 'loaded' | 'failed';

const PENDING_STATUSES = new Set(['uploaded', 'processing']);

/** Fires once when the element comes within 200 px of the viewport; does not watch while `enabled` is false. */
export function useNearViewport<T extends Element>(enabled = true): [React.RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || near || !enabled) return;
    if (typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setNear(true);
          observer.disconnect();
        }
      },
      { rootMargin: '200px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [near, enabled]);
  return [ref, near];
}

export function FilePreview({
  file,
}: {
  file: Pick<FileItem, 'id' | 'filename' | 'preview_available' | 'status'>;
}) {
  const [url, setUrl] = useState(() => cachedPreviewUrl(file.id));
  // Cards mount and unmount as the grid scrolls: watch the viewport only while there is something to fetch.
  const [ref, near] = useNearViewport<HTMLDivElement>(file.preview_available && !url);
  const [state, setState] = useState<PreviewState>(url ? 'loaded' : 'waiting');

  useEffect(() => {
    if (!near || !file.preview_available || url) return;
    let alive = true;
    setState('loading');
    fetchPreview(file.id, file.filename).then(
      (blob) => {
        // Cached even when the card has unmounted meanwhile: it was near the viewport, so it may come back.
        const fetched = rememberPreview(file.id, blob);
        if (!alive) return;
        setUrl(fetched);
        setState('loaded');
      },
      (error: unknown) => {
        console.error(error);
        if (alive) setState('failed');
      },
    );
    return () => {
      alive = false;
    };
  }, [near, file.id, file.filename, file.preview_available, url]);

  let body: React.ReactNode;
  if (url && state === 'loaded') {
    body = (
      <img
        src={url}
        alt={`Preview of ${file.filename}`}
        decoding="async"
        className="h-full w-full object-contain"
      />
    );
  } else if (state === 'failed') {
    body = (
      <span className="text-center">
        <span className="block font-medium">{TEXTS.card.previewUnavailable}</span>
        <span className="block text-xs">{TEXTS.card.previewUnavailableHint}</span>
      </span>
    );
  } else if (file.preview_available || PENDING_STATUSES.has(file.status)) {
    body = <span className="animate-pulse motion-reduce:animate-none">{TEXTS.card.generatingPreview}</span>;
  } else {
    body = <span>{TEXTS.card.noPreview}</span>;
  }

  return (
    <div
      ref={ref}
      data-preview-state={state}
      className="flex aspect-[4/3] items-center justify-center overflow-hidden rounded-lg bg-slate-100 text-sm text-slate-600 dark:bg-slate-800 dark:text-slate-300"
    >
      {body}
    </div>
  );
}
