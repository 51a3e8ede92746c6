// The one pixel-buffer type every engine step takes and returns. Interleaved 8-bit channels, row-major.
export interface RawImage {
  data: Uint8Array;
  width: number;
  height: number;
  /** 1 = grey, 3 = RGB, 4 = RGBA */
  channels: 1 | 3 | 4;
}

export function createImage(width: number, height: number, channels: RawImage['channels']): RawImage {
  return { data: new Uint8Array(width * height * channels), width, height, channels };
}
