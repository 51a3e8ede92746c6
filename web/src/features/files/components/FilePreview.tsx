// Card preview (spec §2 "File card"): fetched only once the card scrolls near the viewport and the server says a
// preview exists; texts for pending, none and failed previews.
import { useEffect, useRef, useState } from 'react';
import { fetchPreview } from '../api/files-api.js';
import type { FileItem } from '../logic/model.js';
import { TEXTS } from '../logic/texts.js';
import { useObjectUrl } from './use-object-url.js';

type PreviewState = 'waiting' | 'loading' | 'loaded' | 'failed';

const PENDING_STATUSES = new Set(['uploaded', 'processing']);

/** Fires once when the element comes within 200 px of the viewport. */
export function useNearViewport<T extends Element>(): [React.RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || near) return;
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
  }, [near]);
  return [ref, near];
}

export function FilePreview({
  file,
}: {
  file: Pick<FileItem, 'id' | 'filename' | 'preview_available' | 'status'>;
}) {
  const [ref, near] = useNearViewport<HTMLDivElement>();
  const [state, setState] = useState<PreviewState>('waiting');
  const [blob, setBlob] = useState<Blob | null>(null);
  const url = useObjectUrl(blob);

  useEffect(() => {
    if (!near || !file.preview_available) return;
    let alive = true;
    setState('loading');
    fetchPreview(file.id, file.filename).then(
      (b) => {
        if (!alive) return;
        setBlob(b);
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
  }, [near, file.id, file.filename, file.preview_available]);

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
      className="flex aspect-[4/3] items-center justify-center overflow-hidden rounded-lg bg-slate-100 text-sm text-slate-500 dark:bg-slate-800 dark:text-slate-400"
    >
      {body}
    </div>
  );
}
