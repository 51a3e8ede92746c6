// The engine's import boundaries (eslint.config.js, CONTRIBUTING.md): eslint must refuse a deliberate violation
// in each room and accept the imports the design allows.
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { engineDir } from './helpers.js';

const repoRoot = path.resolve(engineDir, '..');
// Only the boundary rule, without type information: it needs none, and the snippets below are no real files.
const eslint = new ESLint({
  cwd: repoRoot,
  ruleFilter: ({ ruleId }) => ruleId === '@typescript-eslint/no-restricted-imports',
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
});

/** The boundary messages eslint gives for this code placed at `file` (relative to engine/src). */
async function lint(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(engineDir, 'src', file) });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('engine import boundaries', () => {
  it('refuses a step that imports the analysis', async () => {
    const messages = await lint(
      'steps/violation.ts',
      "import { estimateSkew } from '../analysis/measure.js';\nexport const f = estimateSkew;\n",
    );
    expect(messages).toEqual([expect.stringMatching(/steps\/ imports only the pixel kernel/)]);
  });

  it('refuses analysis code that runs a step or reads the guard', async () => {
    expect(
      await lint(
        'analysis/violation.ts',
        "import { deskew } from '../steps/document.js';\nexport const f = deskew;\n",
      ),
    ).toEqual([expect.stringMatching(/never run step code/)]);
    expect(
      await lint(
        'analysis/violation.ts',
        "import { guardPage } from '../guard/index.js';\nexport const f = guardPage;\n",
      ),
    ).toEqual([expect.stringMatching(/analysis\/ imports only the pixel kernel/)]);
  });

  it('refuses ocr code that imports the guard', async () => {
    expect(
      await lint(
        'ocr/violation.ts',
        "import { guardPage } from '../guard/check.js';\nexport const f = guardPage;\n",
      ),
    ).toEqual([expect.stringMatching(/ocr\/ never imports the word guard/)]);
  });

  it('refuses a kernel that imports anything of the engine but image.ts', async () => {
    expect(
      await lint(
        'pixels/violation.ts',
        "import { deskew } from '../steps/document.js';\nexport const f = deskew;\n",
      ),
    ).toHaveLength(1);
  });

  it('accepts what the design allows', async () => {
    expect(
      await lint(
        'steps/allowed.ts',
        "import type { RawImage } from '../image.js';\nimport { runPageNet } from '../models/page-net.js';\n" +
          "import { toGrey } from '../pixels/index.js';\nimport { num } from './registry.js';\n" +
          'export const f = [runPageNet, toGrey, num];\nexport type R = RawImage;\n',
      ),
    ).toEqual([]);
    expect(
      await lint(
        'analysis/allowed.ts',
        "import type { StepCall } from '../steps/registry.js';\nimport { labelComponents } from '../pixels/components.js';\n" +
          'export const f = labelComponents;\nexport type S = StepCall;\n',
      ),
    ).toEqual([]);
  });

  it('finds no violation in the engine as it is', async () => {
    const results = await eslint.lintFiles(['engine/src/**/*.ts']);
    expect(results.flatMap((r) => r.messages.map((m) => `${r.filePath}: ${m.message}`))).toEqual([]);
  });
});
