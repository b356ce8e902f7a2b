/** The run's task list: order, teardowns in reverse whatever happens, the first error standing. */
import { describe, expect, it } from 'vitest';
import { runTasks } from './tasks.ts';

function tasks(log: string[], fail?: { run?: string; teardown?: string }) {
  const task = (name: string) => ({
    title: name,
    run: async () => {
      log.push(`run ${name}`);
      if (fail?.run === name) throw new Error(`${name} failed`);
    },
    teardown: () => {
      log.push(`teardown ${name}`);
      if (fail?.teardown === name) throw new Error(`${name} teardown failed`);
    },
  });
  return [task('a'), task('b'), { title: 'c', run: () => void log.push('run c') }, task('d')];
}

describe('runTasks', () => {
  it('runs the tasks in order, then their teardowns last first', async () => {
    const log: string[] = [];
    await runTasks({}, tasks(log));
    expect(log).toEqual(['run a', 'run b', 'run c', 'run d', 'teardown d', 'teardown b', 'teardown a']);
  });

  it('stops at a failed task, tears down every task that started (the failed one too), and throws its error', async () => {
    const log: string[] = [];
    await expect(runTasks({}, tasks(log, { run: 'b', teardown: 'a' }))).rejects.toThrow('b failed');
    expect(log).toEqual(['run a', 'run b', 'teardown b', 'teardown a']);
  });

  it('a teardown that fails does not keep the others from running, and fails the run when the tasks succeeded', async () => {
    const log: string[] = [];
    await expect(runTasks({}, tasks(log, { teardown: 'd' }))).rejects.toThrow('d teardown failed');
    expect(log).toEqual(['run a', 'run b', 'run c', 'run d', 'teardown d', 'teardown b', 'teardown a']);
  });
});
