// The web's one-way imports (eslint.config.js, CONTRIBUTING.md): eslint must refuse a deliberate violation of
// app -> features -> shared and accept the imports the design allows.
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const src = path.resolve(import.meta.dirname);
// Only the boundary rule, without type information: it needs none, and the snippets below are no real files.
const eslint = new ESLint({
  cwd: repoRoot,
  ruleFilter: ({ ruleId }) => ruleId === '@typescript-eslint/no-restricted-imports',
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
});

/** The boundary messages eslint gives for this code placed at `file` (relative to web/src). */
async function lint(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(src, file) });
  return result!.messages.map((m) => m.message);
}

describe('web import boundaries', () => {
  it("refuses a feature that imports another feature's internals", async () => {
    expect(
      await lint(
        'features/dashboard/components/Violation.tsx',
        "import { fromDto } from '../../files/logic/model.js';\nexport const f = fromDto;\n",
      ),
    ).toEqual([
      expect.stringContaining('A feature imports another feature only through its public index.ts'),
    ]);
    expect(
      await lint(
        'features/landing/Violation.tsx',
        "import { openCreditModal } from '../billing/credit-modal-store.js';\nexport const f = openCreditModal;\n",
      ),
    ).toEqual([
      expect.stringContaining('A feature imports another feature only through its public index.ts'),
    ]);
  });

  it('refuses a feature that imports app/', async () => {
    expect(
      await lint(
        'features/files/components/Violation.tsx',
        "import { router } from '../../../app/router.js';\nexport const f = router;\n",
      ),
    ).toEqual([expect.stringContaining('Features never import app/ (app -> features -> shared)')]);
  });

  it('refuses shared code that imports a feature or app/', async () => {
    expect(
      await lint(
        'lib/violation.ts',
        "import { TEXTS } from '../features/files/index.js';\nexport const f = TEXTS;\n",
      ),
    ).toHaveLength(1);
    expect(
      await lint('components/Violation.tsx', "import { App } from '../app/App.js';\nexport const f = App;\n"),
    ).toHaveLength(1);
  });

  it('accepts what the design allows', async () => {
    expect(
      await lint(
        'features/dashboard/components/Allowed.tsx',
        "import { TEXTS } from '../../files/index.js';\nimport { getApi } from '../../../api/client.js';\n" +
          "import { OnboardingModal } from './OnboardingModal.js';\nexport const f = [TEXTS, getApi, OnboardingModal];\n",
      ),
    ).toEqual([]);
    expect(
      await lint(
        'app/Allowed.tsx',
        "import { LandingPage } from '../features/landing/LandingPage.js';\nexport const f = LandingPage;\n",
      ),
    ).toEqual([]);
  });

  it('finds no violation in the web app as it is', async () => {
    const results = await eslint.lintFiles(['web/src/**/*.{ts,tsx}']);
    expect(results.flatMap((r) => r.messages.map((m) => `${r.filePath}: ${m.message}`))).toEqual([]);
  }, 60_000);
});
