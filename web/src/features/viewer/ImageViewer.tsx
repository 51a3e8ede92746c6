// An image at full size (100 % = one image pixel per CSS pixel) with zoom (buttons, Ctrl/⌘ + wheel) and pan (drag,
// or scroll). Starts fitted to the window when the image is larger than it.
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { focusRing } from '../../components/ui/styles.js';
import { fitZoom, zoomIn, zoomOut } from './zoom.js';

const toolButton = `inline-flex h-8 min-w-8 items-center justify-center rounded-md px-2 text-sm font-medium text-slate-700 hover:bg-slate-200 dark:text-slate-200 dark:hover:bg-slate-700 ${focusRing}`;

export function ImageViewer({ url, alt }: { url: string; alt: string }) {
  const scroller = useRef<HTMLDivElement>(null);
  const drag = useRef<{ x: number; y: number; left: number; top: number } | null>(null);
  const [natural, setNatural] = useState<{ width: number; height: number } | null>(null);
  const [zoom, setZoom] = useState(1);

  const fit = () => {
    const box = scroller.current;
    if (natural && box) setZoom(fitZoom(natural, { width: box.clientWidth, height: box.clientHeight }));
  };
  useEffect(() => {
    const box = scroller.current;
    if (natural && box) setZoom(fitZoom(natural, { width: box.clientWidth, height: box.clientHeight }));
  }, [natural]);
  // Ctrl/⌘ + wheel zooms; a native listener, as React's wheel listeners are passive and cannot prevent scrolling.
  useEffect(() => {
    const box = scroller.current;
    if (!box) return;
    const onWheel = (e: WheelEvent) => {
      if (!e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      setZoom((z) => (e.deltaY < 0 ? zoomIn(z) : zoomOut(z)));
    };
    box.addEventListener('wheel', onWheel, { passive: false });
    return () => box.removeEventListener('wheel', onWheel);
  }, []);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    const box = scroller.current;
    if (!box || e.button !== 0) return;
    drag.current = { x: e.clientX, y: e.clientY, left: box.scrollLeft, top: box.scrollTop };
    box.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const box = scroller.current;
    const start = drag.current;
    if (!box || !start) return;
    box.scrollLeft = start.left - (e.clientX - start.x);
    box.scrollTop = start.top - (e.clientY - start.y);
  };

  return (
    <div className="flex h-full min-h-0 flex-col" data-testid="image-viewer">
      <div
        role="toolbar"
        aria-label="Image viewer"
        className="flex items-center gap-1 border-b border-slate-200 bg-slate-50 px-3 py-2 dark:border-slate-700 dark:bg-slate-800"
      >
        <button type="button" className={toolButton} aria-label="Zoom out" onClick={() => setZoom(zoomOut)}>
          −
        </button>
        <span
          className="w-12 text-center text-sm tabular-nums text-slate-700 dark:text-slate-200"
          data-testid="zoom"
        >
          {Math.round(zoom * 100)}%
        </span>
        <button type="button" className={toolButton} aria-label="Zoom in" onClick={() => setZoom(zoomIn)}>
          +
        </button>
        <button type="button" className={toolButton} onClick={() => setZoom(1)}>
          Full size
        </button>
        <button type="button" className={toolButton} onClick={fit}>
          Fit
        </button>
        {natural ? (
          <span className="ml-2 text-xs text-slate-500">
            {natural.width} × {natural.height} px
          </span>
        ) : null}
      </div>
      <div
        ref={scroller}
        data-testid="image-scroll"
        className="min-h-0 flex-1 cursor-grab touch-none overflow-auto bg-slate-200 active:cursor-grabbing dark:bg-slate-950"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={() => (drag.current = null)}
        onPointerCancel={() => (drag.current = null)}
      >
        <img
          src={url}
          alt={alt}
          draggable={false}
          onLoad={(e) =>
            setNatural({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })
          }
          className="m-auto block max-w-none select-none"
          style={natural ? { width: natural.width * zoom, height: natural.height * zoom } : undefined}
        />
      </div>
    </div>
  );
}
