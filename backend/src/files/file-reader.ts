// Upload checks and previews run in the engine's reader children (`Sandbox`): off the event loop, and each
// bounded by a time limit and a resident-memory ceiling. A file past either is refused as too complex; the
// child is killed and the API process never holds the file's pixels.
import { Sandbox, type InputInfo, type InputLimits, type Thumbnail } from '@folio/engine';

export interface FileReaderOptions {
  /** Resident memory one reader child may reach (settings.fileCheckMemoryMb). */
  memoryMb: number;
  /** Time limit of one check or preview (settings.fileCheckTimeoutSeconds). */
  timeoutMs: number;
}

/** Two children at most: checks of concurrent uploads run side by side, and a preview beside them. */
const READER_CHILDREN = 2;

export class FileReader {
  private readonly sandbox: Sandbox;

  constructor(private readonly opts: FileReaderOptions) {
    this.sandbox = new Sandbox({ memoryMb: opts.memoryMb, children: READER_CHILDREN, idleMs: 30_000 });
  }

  /** `inspectInput` of @folio/engine in a reader child. */
  inspect(bytes: Buffer, limits: InputLimits): Promise<InputInfo> {
    return this.sandbox.inspect(bytes, limits, this.opts.timeoutMs);
  }

  /** `renderThumbnail` of @folio/engine in a reader child. */
  async thumbnail(bytes: Buffer, width: number): Promise<Thumbnail> {
    const { data, mime } = await this.sandbox.thumbnail(bytes, width, this.opts.timeoutMs);
    return { data: Buffer.from(data), mime };
  }

  /** Largest resident memory a reader child reached, in MB. */
  get peakMb(): number {
    return this.sandbox.peakMb;
  }

  /** Stops the children (app close) so the process can exit. */
  close(): void {
    this.sandbox.close();
  }
}
