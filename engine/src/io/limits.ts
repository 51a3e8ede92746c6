// Size limits shared by the engine's readers and by the backend's upload check (one limit, one place).

/** Pixel budget for one decoded or rendered page, and for one image inside a PDF (about 300 DPI on A3). */
export const MAX_PAGE_PIXELS = 40_000_000;
