// The trained photo network as a plan step: JPEG blocking, the blur of an enlarged small photo and light noise in
// one pass.
import { runPhotoNet } from '../models/photo-net.js';
import type { Step } from './registry.js';

export const restorePhotoNet: Step = {
  name: 'restore-photo-net',
  kind: 'photo',
  description:
    'Trained photo network (engine/weights/photo-net.onnx): JPEG blocking, enlargement blur and light noise removed',
  run: (img) => runPhotoNet(img),
};
