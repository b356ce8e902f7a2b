/**
 * A vitest reporter that keeps, for every test, its state and the findings the suite attached to its
 * meta. It prints nothing; the summary and the other reports are built from what it keeps.
 */
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { META_KEY, type TestMeta } from '../core/index.ts';
import type { RunRecord, TestRecord } from './records.ts';


export class CollectorReporter implements Reporter {
  readonly tests: TestRecord[] = [];
  readonly unhandled: string[] = [];
  private readonly started = Date.now();
  /** Called with each finished test (for live progress). */
  constructor(private readonly onTest?: (t: TestRecord) => void) {}

  onTestCaseResult(tc: TestCase): void {
    const meta = (tc.meta() as Record<string, unknown>)[META_KEY] as TestMeta | undefined;
    const r = tc.result();
    const state = r.state === 'passed' ? 'passed' : r.state === 'failed' ? 'failed' : 'skipped';
    const errors = r.state === 'failed' ? (r.errors ?? []).map((e) => String(e.message ?? e)) : [];
    const rec: TestRecord = {
      name: meta ? `${meta.capability} > ${tc.name}` : tc.fullName,
      capability: meta?.capability ?? tc.module.moduleId.split('/suites/')[1]?.split('/')[0] ?? 'unknown',
      clause: meta?.clause ?? '',
      file: tc.module.moduleId,
      state,
      durationMs: tc.diagnostic()?.duration ?? 0,
      findings: meta?.findings ?? [],
      skipReason: meta?.skipReason ?? (r.state === 'skipped' ? r.note : undefined),
      toolkitError: meta?.toolkitError ?? (state === 'failed' && !meta ? { code: 'PCC_INTERNAL', message: errors.join('\n') } : undefined),
      errors,
      parameters: meta?.parameters ?? {},
      exchanges: meta?.exchanges ?? [],
    };
    this.tests.push(rec);
    this.onTest?.(rec);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ message?: string; stack?: string }>): void {
    for (const e of unhandledErrors) this.unhandled.push(String(e.stack ?? e.message ?? e));
    for (const m of modules) {
      const errs = m.errors();
      for (const e of errs) this.unhandled.push(`${m.moduleId}: ${String(e.message ?? e)}`);
    }
  }

  record(): RunRecord {
    return { tests: this.tests, unhandled: this.unhandled, startedAt: new Date(this.started).toISOString(), durationMs: Date.now() - this.started };
  }
}
