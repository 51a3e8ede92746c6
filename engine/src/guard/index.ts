// The word guard: reads a page before and after restoration and keeps every clearly read word (check.ts), finds
// where the ink changed (changes.ts), judges a page's reading as a whole (quality.ts, never-worse.ts) and patches
// lost words back from the conservative steps or the input (word-fallback.ts, patch.ts). Built on src/ocr.
export {
  DEFAULT_GUARD_OPTIONS,
  compareWords,
  guardPage,
  readWithinTimeLimit,
  NOTHING_READ,
  readAtPlace,
  reduceBy,
  rereadBoxes,
  wordKey,
  type ChangedWord,
  type GuardOptions,
  type GuardRegion,
  type GuardResult,
} from './check.js';
export {
  FALLBACK_TOLERANCE,
  RESTORATION_TOLERANCE,
  READ_CONFIDENCE,
  readingOrder,
  clearWordsGained,
  clearerAmongMarks,
  readingQuality,
  readLessSure,
  cutWhereWhole,
  cutFarMore,
  pageReadingWorse,
  readsOutOfOrder,
  type ReadingOrder,
  readsBetter,
  readsWorse,
  type ReadingQuality,
} from './quality.js';
export {
  blobs,
  maskedCrop,
  scaled,
  turned,
  union,
  inkChanges,
  unreadInk,
  type Box,
  type InkChangeOptions,
  type InkChanges,
} from './changes.js';
export { checkedInTime, classicalReadsBetter, firstSafe, neverWorse, showsAsItCame } from './never-worse.js';
export { patchBadWords, readInside, type WordSources } from './word-fallback.js';
export { mergeWords, padBoxes, patchBoxes, patchBoxesLevelled } from './patch.js';
