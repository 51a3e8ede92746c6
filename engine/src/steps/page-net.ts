// The trained network as a plan step: the damaged page's paper, stains, shadows, noise and blur in one pass.
import { runPageNet } from '../models/page-net.js';
import type { Step } from './registry.js';

export const restorePageNet: Step = {
  name: 'restore-page-net',
  kind: 'document',
  description:
    'Trained restoration network (engine/weights/page-net.onnx): damaged page in, clean grey page out',
  run: (img) => runPageNet(img),
};
