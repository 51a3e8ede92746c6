// The trained network as a plan step: the damaged page's paper, stains, shadows, noise and blur in one pass, then
// the marks it drew darker than the input shows them (bleed-through) turned back to paper.
import { runPageNet } from '../models/page-net.js';
import { clearPaleMarks } from './pale-marks.js';
import { num, type Step } from './registry.js';

export const restorePageNet: Step = {
  name: 'restore-page-net',
  kind: 'document',
  description:
    'Trained restoration network (engine/weights/page-net.onnx): damaged page in, clean grey page out, ' +
    'bleed-through it darkened cleared',
  run: async (img, params) => clearPaleMarks(img, await runPageNet(img), num(params, 'dpi', 150)),
};
