// Readiness: each part this node needs to do its work, checked with a time limit (a Redis that is down makes
// ioredis queue commands instead of failing, so an unbounded check would hang the probe).
export interface ReadinessCheck {
  name: string;
  check: () => Promise<unknown>;
}

export interface ReadinessReport {
  ready: boolean;
  /** Names of the parts that did not answer in time or answered with an error. */
  failing: string[];
}

export async function checkReadiness(
  checks: readonly ReadinessCheck[],
  timeoutMs: number,
): Promise<ReadinessReport> {
  const results = await Promise.all(
    checks.map(async ({ name, check }) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error('timed out')), timeoutMs);
      });
      try {
        await Promise.race([check(), timeout]);
        return null;
      } catch {
        return name;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  const failing = results.filter((name): name is string => name !== null);
  return { ready: failing.length === 0, failing };
}
