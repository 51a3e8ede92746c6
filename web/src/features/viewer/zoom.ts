// Zoom steps shared by the image viewer and the comparison view.
export const MIN_ZOOM = 0.1;
export const MAX_ZOOM = 8;
const STEP = 1.25;

export const clampZoom = (zoom: number): number => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));
export const zoomIn = (zoom: number): number => clampZoom(zoom * STEP);
export const zoomOut = (zoom: number): number => clampZoom(zoom / STEP);

/** The zoom at which an image of `natural` size fits inside `box` (never above 1: small images stay full size). */
export function fitZoom(
  natural: { width: number; height: number },
  box: { width: number; height: number },
): number {
  if (natural.width <= 0 || natural.height <= 0 || box.width <= 0 || box.height <= 0) return 1;
  return clampZoom(Math.min(1, box.width / natural.width, box.height / natural.height));
}
