// Runs in a worker thread (see inspect-pool.ts): parsing a PDF or decoding an image is CPU work that must
// never hold the API's event loop. Input errors come back as plain data (class identity is lost between threads).
import {
  EngineInputError,
  inspectInput,
  renderThumbnail,
  type InputInfo,
  type Thumbnail,
} from '@folio/engine';

export type InspectTask =
  | { op: 'inspect'; bytes: Uint8Array; maxPages: number; maxPixels: number }
  | { op: 'thumbnail'; bytes: Uint8Array; width: number };

export type InspectOutcome =
  | { ok: true; info?: InputInfo; thumbnail?: Thumbnail }
  | { ok: false; code: EngineInputError['code']; message: string };

export default async function run(task: InspectTask): Promise<InspectOutcome> {
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  try {
    if (task.op === 'inspect') {
      return {
        ok: true,
        info: await inspectInput(bytes, { maxPages: task.maxPages, maxPixels: task.maxPixels }),
      };
    }
    return { ok: true, thumbnail: await renderThumbnail(bytes, { width: task.width }) };
  } catch (error) {
    if (error instanceof EngineInputError) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}
