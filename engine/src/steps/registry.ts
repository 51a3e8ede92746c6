// Steps are small pure functions on pixel buffers, registered by name so that each can be listed, measured,
// swapped and tested alone. The pipeline decides which to run; a step never does I/O.
import type { RawImage } from '../image.js';

export type StepKind = 'document' | 'photo' | 'any';
export type StepParams = Record<string, number | string | boolean>;

export interface Step {
  name: string;
  kind: StepKind;
  description: string;
  run(img: RawImage, params: StepParams): RawImage | Promise<RawImage>;
  /**
   * A photo step's own check of its output, in place of the photo self-check's structure check
   * (pipeline/photo-check.ts): why the output is rejected, or undefined.
   */
  selfCheck?(before: RawImage, after: RawImage): string | undefined;
}

/** One planned use of a step. */
export interface StepCall {
  name: string;
  params: StepParams;
}

export class StepRegistry {
  private readonly steps = new Map<string, Step>();

  register(step: Step): this {
    this.steps.set(step.name, step);
    return this;
  }

  get(name: string): Step {
    const step = this.steps.get(name);
    if (!step) throw new Error(`Unknown restoration step "${name}".`);
    return step;
  }

  has(name: string): boolean {
    return this.steps.has(name);
  }

  list(): Step[] {
    return [...this.steps.values()];
  }

  /** The same steps, each calling `check` first: a check that throws stops the work between two steps. */
  checkedBy(check: () => void): StepRegistry {
    const checked = new StepRegistry();
    for (const step of this.steps.values())
      checked.register({
        ...step,
        run: (img, params) => {
          check();
          return step.run(img, params);
        },
      });
    return checked;
  }
}

export function num(params: StepParams, key: string, fallback: number): number {
  const v = params[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}
