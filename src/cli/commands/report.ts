/**
 * `report`: regenerates the Allure HTML report from the last run's allure-results and serves it on
 * loopback (the report loads its data over HTTP, not from file://). `--open` tries xdg-open and
 * otherwise prints the address; `--no-serve` only regenerates.
 */
import { spawn } from 'node:child_process';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import {
  DEFAULTS,
  REPORT_FLAGS,
  argvOf,
  flagValue,
  formatCommandHelp,
  parseCommandLine,
  port as portParser,
  resolveConfig,
  type CommandSpec,
} from '../../config/index.ts';
import { ToolkitError } from '../../core/index.ts';
import { REPORT_FILES, generateAllureHtml } from '../../report/index.ts';
import type { RunIo } from '../../engine/index.ts';
import { defineCommand } from '../command.ts';

const REPORTS = REPORT_FLAGS.filter((f) => f.name === 'reports');

/** `report`: which run's reports, and how to serve them. */
export const REPORT_COMMAND = {
  name: 'report',
  synopsis: '[flags]',
  about:
    'Regenerates the Allure HTML report of the last run from its allure-results and serves it on 127.0.0.1 ' +
    '(the report loads its data over HTTP, not from file://).',
  sections: [
    { heading: 'Output', flags: REPORTS },
    {
      heading: 'Serving',
      flags: [
        {
          name: 'port',
          type: 'string',
          placeholder: '<n>',
          description: 'The port to serve on, on 127.0.0.1 (0: a free one)',
          defaultText: String(DEFAULTS.reportPort),
        },
        { name: 'open', type: 'boolean', description: 'Open the report in a browser (xdg-open), else print its address' },
        { name: 'serve', type: 'boolean', negated: true, description: 'Regenerate the report and exit' },
      ],
    },
  ],
} as const satisfies CommandSpec;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.sh': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.md': 'text/markdown; charset=utf-8',
};

/** A static server of one folder. */
export interface ReportServer {
  url: string;
  close(): Promise<void>;
}

/** Serves `dir` on `host:port` (loopback by default; port 0 picks a free one). */
export async function serveReport(dir: string, opts: { host?: string; port?: number } = {}): Promise<ReportServer> {
  const root = resolve(dir);
  const server = createServer((req, res) => {
    let pathname: string;
    try {
      pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    let file = resolve(root, `.${pathname}`);
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(404).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream', 'cache-control': 'no-store' });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  });
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(opts.port ?? 0, host, () => ok());
  }).catch((e: unknown) => {
    throw new ToolkitError(
      'PCC_USAGE',
      `cannot serve the report on ${host}:${opts.port ?? 0}: ${(e as Error).message}`,
      'choose another --port (0 picks a free one)',
      { cause: e },
    );
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}/`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** Tries to open `url` in the desktop's browser; false when there is no xdg-open or it failed. */
export function tryOpen(url: string): Promise<boolean> {
  return new Promise((ok) => {
    try {
      const child = spawn('xdg-open', [url], { stdio: 'ignore', detached: true });
      child.once('error', () => ok(false));
      child.once('exit', (code) => ok(code === 0));
      child.unref();
    } catch {
      ok(false);
    }
  });
}

/** Runs `report`; serves until SIGINT/SIGTERM (or `signal`), then returns 0. */
export async function reportCommand(
  argv: string[],
  env: NodeJS.ProcessEnv,
  io: RunIo,
  opts: { signal?: AbortSignal; cwd?: string } = {},
): Promise<number> {
  const { values: args, help } = parseCommandLine(REPORT_COMMAND, argv);
  if (help) {
    io.stdout(formatCommandHelp(REPORT_COMMAND));
    return 0;
  }
  const port = flagValue('port', args.port, portParser) ?? DEFAULTS.reportPort;
  const config = await resolveConfig({ argv: argvOf(REPORTS, args), env, cwd: opts.cwd ?? process.cwd(), usesTarget: false });
  const dir = config.reportsDir;
  const results = join(dir, REPORT_FILES.allureResults);
  if (!existsSync(results))
    throw new ToolkitError(
      'PCC_USAGE',
      `no allure-results in ${dir}`,
      'run `payconnect-conformance run` first (the report is made from its results)',
    );
  const output = join(dir, REPORT_FILES.allureReport);
  await generateAllureHtml({
    resultsDir: results,
    outputDir: output,
    historyPath: join(dir, REPORT_FILES.allureHistory),
    appendHistory: false,
  });
  io.stdout(`report: ${join(output, 'index.html')}\n`);
  if (args.serve === false) return 0;
  const server = await serveReport(output, { port });
  io.stdout(`serving the report at ${server.url} (Ctrl-C to stop)\n`);
  if (args.open && !(await tryOpen(server.url))) io.stdout(`could not open a browser: open ${server.url} yourself\n`);
  await new Promise<void>((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      opts.signal?.removeEventListener('abort', stop);
      done();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    opts.signal?.addEventListener('abort', stop);
    if (opts.signal?.aborted) stop();
  });
  await server.close();
  return 0;
}

export default defineCommand({ spec: REPORT_COMMAND, run: (argv, env, io) => reportCommand(argv, env, io) });
