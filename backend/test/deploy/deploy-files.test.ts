// deploy/Dockerfile and deploy/compose.yaml, read the way an operator's tools read them: no container engine
// runs here, so the image is checked by parsing it, and the suite in test-scale runs the same compiled
// entry points outside a container.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const DEPLOY = path.join(ROOT, 'deploy');

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  from: string;
  name: string;
  instructions: Instruction[];
}

/** Dockerfile instructions by stage, with continuation lines joined and ARG defaults substituted. */
function parseDockerfile(text: string): Stage[] {
  const joined = text.replace(/\\\n/g, ' ');
  const args = new Map<string, string>();
  const stages: Stage[] = [];
  for (const raw of joined.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [keyword = '', ...rest] = line.split(/\s+/);
    const argsText = rest.join(' ').replace(/\$\{(\w+)\}/g, (_m, name: string) => args.get(name) ?? '');
    if (keyword === 'ARG' && stages.length === 0) {
      const [name = '', value = ''] = argsText.split('=');
      args.set(name, value);
    } else if (keyword === 'FROM') {
      const [from = '', , name = ''] = argsText.split(/\s+/);
      stages.push({ from, name, instructions: [] });
    } else {
      stages.at(-1)?.instructions.push({ keyword, args: argsText });
    }
  }
  return stages;
}

const stages = parseDockerfile(readFileSync(path.join(DEPLOY, 'Dockerfile'), 'utf8'));
const runtime = stages.at(-1)!;
const of = (stage: Stage, keyword: string) => stage.instructions.filter((i) => i.keyword === keyword);

describe('deploy/Dockerfile', () => {
  it('builds in stages and runs on a supported Node LTS (22 or 24), not Node 20', () => {
    expect(stages.map((s) => s.name)).toEqual(['build', 'deps', 'runtime']);
    for (const stage of stages) expect(stage.from).toMatch(/^node:(22|24)[.-]/);
  });

  it('builds web assets, compiled JavaScript and the model weights in the build stage', () => {
    const build = of(stages[0]!, 'RUN')
      .map((i) => i.args)
      .join('\n');
    expect(build).toContain('npm run build -w @folio/web');
    expect(build).toMatch(/npm run build(\s|$)/);
    expect(build).toContain('npm run models -w @folio/engine');
  });

  it('installs production dependencies only for the runtime, and no compiler in it', () => {
    expect(
      of(stages[1]!, 'RUN')
        .map((i) => i.args)
        .join('\n'),
    ).toContain('npm ci --omit=dev');
    const runtimeRuns = of(runtime, 'RUN')
      .map((i) => i.args)
      .join('\n');
    expect(runtimeRuns).toMatch(/apt-get install .*tesseract-ocr tesseract-ocr-eng tesseract-ocr-osd/);
    expect(runtimeRuns).not.toMatch(/g\+\+|make |npm (ci|install)/);
  });

  it('copies only build outputs that the build produces', () => {
    const outputs = new Set([
      'packages/shared/dist',
      'engine/dist',
      'backend/dist',
      'web/dist',
      'engine/models',
      // Committed with the repository (the trained page network), taken from the build stage's copy.
      'engine/weights',
    ]);
    for (const copy of of(runtime, 'COPY')) {
      const [from, source] = copy.args.split(/\s+/);
      if (from === '--from=deps') continue;
      expect(from).toBe('--from=build');
      expect(outputs.has(source!.replace(/^\/app\//, ''))).toBe(true);
    }
    // Each compiled workspace has its build configuration, with dist/ as its output directory.
    for (const workspace of ['packages/shared', 'engine', 'backend']) {
      const config = JSON.parse(readFileSync(path.join(ROOT, workspace, 'tsconfig.build.json'), 'utf8')) as {
        compilerOptions: { outDir: string };
      };
      expect(config.compilerOptions.outDir).toBe('dist');
    }
  });

  it('runs as a non-root user, without a TypeScript loader, with a readiness healthcheck', () => {
    const user = of(runtime, 'USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
    const cmd = of(runtime, 'CMD').at(-1)!.args;
    expect(JSON.parse(cmd)).toEqual(['node', 'backend/dist/main.js']);
    expect(JSON.stringify(runtime.instructions)).not.toContain('tsx');
    const healthcheck = of(runtime, 'HEALTHCHECK').at(-1)!.args;
    expect(healthcheck).toContain('/api/v1/ready');
    expect(
      of(runtime, 'ENV')
        .map((i) => i.args)
        .join(' '),
    ).toContain('NODE_OPTIONS=--conditions=folio-dist');
  });

  it("runs Node with the Makefile's allocator settings", () => {
    const makefile = readFileSync(path.join(ROOT, 'Makefile'), 'utf8');
    const tunables = /^export GLIBC_TUNABLES \?= (\S+)$/m.exec(makefile)?.[1];
    expect(tunables).toMatch(/^glibc\.malloc\./);
    const env = of(runtime, 'ENV')
      .map((i) => i.args)
      .join(' ');
    expect(env).toContain(`GLIBC_TUNABLES=${tunables}`);
  });

  it('runs the healthcheck in a shell that asks HEALTH_PORT, else PORT, for readiness', async () => {
    const command = /\bCMD (.*)$/.exec(of(runtime, 'HEALTHCHECK').at(-1)!.args)?.[1] ?? '';
    const server = createServer((req, res) => res.writeHead(req.url === '/api/v1/ready' ? 200 : 404).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = String((server.address() as AddressInfo).port);
    const check = async (env: Record<string, string>) => {
      try {
        await promisify(execFile)('/bin/sh', ['-c', command], {
          env: { PATH: path.dirname(process.execPath), ...env },
        });
        return 0;
      } catch (error) {
        return (error as { code?: number }).code;
      }
    };
    try {
      expect(await check({ PORT: port })).toBe(0);
      expect(await check({ PORT: '1', HEALTH_PORT: port })).toBe(0);
      expect(await check({ PORT: port, HEALTH_PORT: '1' })).toBe(1);
    } finally {
      server.close();
    }
  });
});

describe('deploy/compose.yaml', () => {
  const compose = parse(readFileSync(path.join(DEPLOY, 'compose.yaml'), 'utf8'), { merge: true }) as {
    services: Record<
      string,
      {
        command?: string[];
        image?: string;
        environment?: Record<string, string>;
        depends_on?: Record<string, { condition: string }>;
      }
    >;
  };
  const roles = { migrate: 'migrate', api: 'main', worker: 'worker', sweep: 'sweep' };

  it('runs every role from the same image with its compiled entry point', () => {
    for (const [service, entry] of Object.entries(roles)) {
      const definition = compose.services[service]!;
      expect(definition.image).toBe('folio:latest');
      expect(definition.command).toEqual(['node', `backend/dist/${entry}.js`]);
      expect(existsSync(path.join(ROOT, 'backend/src', `${entry}.ts`))).toBe(true);
    }
  });

  it('starts the other roles only after the one-shot migration succeeded', () => {
    for (const service of ['api', 'worker', 'sweep']) {
      const definition = compose.services[service]!;
      expect(definition.depends_on?.migrate).toEqual({ condition: 'service_completed_successfully' });
      expect(definition.environment?.MIGRATE_AT_START).toBe('false');
    }
    expect(compose.services.api!.environment).toMatchObject({
      JOB_CONCURRENCY: '0',
      RETENTION_SWEEP_IN_API: 'false',
    });
  });
});
