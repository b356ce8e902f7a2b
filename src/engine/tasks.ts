/**
 * A run as a list of named tasks, each with what undoes it (Playwright's task runner is the model):
 * the tasks run in order on one state; once one fails, or all are done, the teardowns of those that
 * started run in reverse order, every one of them. The first error stands; a teardown's error is
 * thrown only when the tasks themselves succeeded.
 */
export interface Task<S> {
  /** What the task does, as a reader of the run would name it. */
  title: string;
  run: (state: S) => unknown;
  /** Undoes what `run` set up; called whether the tasks after it succeeded or not. */
  teardown?: (state: S) => unknown;
}

/** Runs `tasks` in order on `state`, then the teardowns of those that started, last first. */
export async function runTasks<S>(state: S, tasks: readonly Task<S>[]): Promise<void> {
  const started: Task<S>[] = [];
  let failed = false;
  try {
    for (const task of tasks) {
      started.push(task);
      await task.run(state);
    }
  } catch (e) {
    failed = true;
    throw e;
  } finally {
    let teardownError: { error: unknown } | undefined;
    for (const task of started.reverse()) {
      try {
        await task.teardown?.(state);
      } catch (e) {
        teardownError ??= { error: e };
      }
    }
    // A teardown's error is the run's only when the tasks succeeded.
    if (teardownError && !failed) throw teardownError.error;
  }
}
