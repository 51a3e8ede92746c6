import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { toGrey } from '../src/pixels/index.js';
import { estimateSkew } from '../src/analysis/measure.js';
for (const f of process.argv.slice(2)) {
  const { data, info } = await sharp(await readFile(f)).raw().toBuffer({ resolveWithObject: true });
  const img = { data: new Uint8Array(data), width: info.width, height: info.height, channels: info.channels };
  console.log(f.split('/').slice(-2).join('/'), estimateSkew(img as never, Number(process.env.DPI ?? 150)).toFixed(3));
}
