// The default step registry: every built-in step, by name.
import { documentSteps } from './document.js';
import { geometrySteps } from './geometry.js';
import { restorePageNet } from './page-net.js';
import { removeDustNet, restorePhotoNet } from './photo-net.js';
import { photoSteps } from './photo.js';
import { photoRestoreSteps } from './photo-restore.js';
import { StepRegistry } from './registry.js';

export function createDefaultRegistry(): StepRegistry {
  const registry = new StepRegistry();
  for (const step of [
    ...geometrySteps,
    ...documentSteps,
    restorePageNet,
    restorePhotoNet,
    removeDustNet,
    ...photoSteps,
    ...photoRestoreSteps,
  ])
    registry.register(step);
  return registry;
}

export { StepRegistry, type Step, type StepCall, type StepKind, type StepParams } from './registry.js';
