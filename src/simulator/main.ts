/**
 * Stand-alone entry: `npx tsx src/simulator/main.ts [flags]` runs the `sim` command (the project's
 * bin wires simCommand itself; this file is for running the simulator straight from source).
 */
import { simCommand } from './sim-command.ts';

process.exitCode = await simCommand(process.argv.slice(2), {
  stdout: (s) => void process.stdout.write(s),
  stderr: (s) => void process.stderr.write(s),
});
