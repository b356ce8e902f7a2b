/**
 * The HTTP front of the simulator: node:http on loopback (node:https with the `tls` option), one request pipeline
 * (body limit -> route -> auth -> handler), every failure a `{"detail": ...}` JSON answer, nothing
 * thrown past a request. Fault switches that act on the wire (slow, content types) live here.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type ServerOptions, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Server, Socket } from 'node:net';
import { authenticate } from './auth.ts';
import type { SimContext } from './sim-state.ts';
import { HttpError, notFound } from './errors.ts';
import { BODY_LIMIT, type BodyResult, readBody } from './http-body.ts';
import type { ApiRequest, Reply, Router } from './router.ts';
import type { Liberal } from './liberal.ts';
import type { Pairing } from './store.ts';

/** Delay of every answer under the `slow` fault. */
export const SLOW_MS = 150;

/**
 * An answer about to be written: a reply, or an error. `control`: an answer of the simulator's
 * control surface, which no fault switch bends (no slow, no text bodies).
 */
type Answer = ({ readonly reply: Reply } | { readonly error: HttpError }) & { readonly control?: boolean };

/** The request path without query or fragment; null when not origin-form. */
function pathOf(url: string | undefined): string | null {
  if (!url || !url.startsWith('/')) return null;
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/** A path fit for a log line: printable, bounded (ids only, never a secret: those travel in bodies and headers). */
function logPath(path: string | null): string {
  const p = (path ?? '(invalid)').replace(/[^\x21-\x7e]/g, '?');
  return p.length > 200 ? `${p.slice(0, 200)}...` : p;
}

function dispatch(ctx: SimContext, router: Router, req: IncomingMessage, path: string | null, body: BodyResult): Answer {
  if (body.kind === 'aborted') return { error: new HttpError(400, 'the request body was not received') };
  if (body.kind === 'too-large') {
    return { error: new HttpError(413, `the body is larger than ${BODY_LIMIT} bytes`, body.drained ? {} : { connection: 'close' }) };
  }
  const m = path === null ? ({ kind: 'not-found' } as const) : router.match(req.method ?? '', path);
  if (m.kind === 'not-found') return { error: notFound('no such endpoint (paths end with a slash)') };
  if (m.kind === 'wrong-method') {
    return { error: new HttpError(405, `method ${req.method} is not allowed here`, { allow: m.allow.join(', ') }) };
  }
  const pairing = m.route.auth === 'bearer' ? authenticate(ctx, req.headers) : null;
  const apiReq: ApiRequest = {
    params: m.params,
    headers: req.headers,
    raw: body.raw,
    get pairing(): Pairing {
      if (!pairing) throw new Error('route without authentication asked for a pairing');
      return pairing;
    },
  };
  if (!m.route.control) return { reply: m.route.handle(apiReq) };
  try {
    return { reply: m.route.handle(apiReq), control: true };
  } catch (e) {
    return { ...toAnswer(e), control: true };
  }
}

function toAnswer(e: unknown): Answer {
  return { error: e instanceof HttpError ? e : new HttpError(500, 'internal error of the simulator') };
}

/**
 * The liberal sandbox's answer (liberties.ts: json.*, headers.extra, errors.extra-fields,
 * errors.www-authenticate-params, records.extra-fields, records.optional-absent, config.own-values).
 */
function writeLiberal(liberal: Liberal, req: IncomingMessage, path: string | null, res: ServerResponse, a: Answer): Written {
  if (liberal.closesConnection()) res.shouldKeepAlive = false; // keep-alive.close-some: Connection: close
  if ('error' in a) {
    const { status, detail, headers } = a.error;
    const payload = liberal.json(liberal.errorBody(status, detail));
    res.writeHead(status, {
      ...headers,
      ...liberal.headers(status),
      'content-type': liberal.contentType,
      'content-length': Buffer.byteLength(payload),
    });
    res.end(payload);
    return { status, payload };
  }
  const { status, body, json } = a.reply;
  if (body === undefined && json === undefined) {
    res.writeHead(status, { ...liberal.headers(status), 'content-length': 0 });
    res.end();
    return { status, payload: undefined };
  }
  const payload = liberal.json(liberal.dress(req.method, path, json !== undefined ? JSON.parse(json) : body));
  // http.chunked-answers: without a content-length, node:http sends the body chunked.
  const length = liberal.announcesLength() ? { 'content-length': Buffer.byteLength(payload) } : {};
  res.writeHead(status, { ...liberal.headers(status), 'content-type': liberal.contentType, ...length });
  res.end(payload);
  return { status, payload };
}

/** What was written: the status and the body's text (undefined: no body). */
interface Written {
  readonly status: number;
  readonly payload: string | undefined;
}

function write(ctx: SimContext, req: IncomingMessage, path: string | null, res: ServerResponse, a: Answer): Written {
  if (res.headersSent || res.destroyed) return { status: res.statusCode, payload: undefined };
  if (ctx.liberal && !a.control) return writeLiberal(ctx.liberal, req, path, res, a);
  const bent = (id: 'error.non-json' | 'content-type.text-plain') => !a.control && ctx.faults.has(id);
  if ('error' in a) {
    const { status, detail, headers } = a.error;
    const text = bent('error.non-json');
    const payload = text ? detail : JSON.stringify({ detail });
    res.writeHead(status, {
      ...headers,
      'content-type': text ? 'text/plain; charset=utf-8' : 'application/json',
      'content-length': Buffer.byteLength(payload),
    });
    res.end(payload);
    return { status, payload };
  }
  const { status, body, json } = a.reply;
  if (body === undefined && json === undefined) {
    res.writeHead(status, { 'content-length': 0 });
    res.end();
    return { status, payload: undefined };
  }
  const payload = json ?? JSON.stringify(body);
  const type = bent('content-type.text-plain') ? 'text/plain; charset=utf-8' : 'application/json';
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(payload), 'cache-control': 'no-store' });
  res.end(payload);
  return { status, payload };
}

/** The simulator's HTTP server and how to stop it. */
export interface SimServer {
  /** An http.Server, or an https.Server with TLS. */
  readonly server: Server;
  /** Stops listening, destroys keep-alive sockets and pending slow answers. */
  close(): Promise<void>;
}

/** What the HTTPS server serves (tls.ts): the server's key and certificate, and the CA file clients must trust. */
export interface SimServerTls {
  readonly key: string;
  readonly cert: string;
  readonly caFile: string;
}

/**
 * The line about a connection that ended in its TLS handshake: what the client did, in words an
 * integrator can act on. OpenSSL's `reason` (e.g. "tlsv1 alert unknown ca") when it has one.
 */
export function tlsErrorLine(e: NodeJS.ErrnoException & { reason?: unknown }, caFile: string): string {
  const reason = typeof e.reason === 'string' ? e.reason : e.message;
  if (e.code === 'ERR_SSL_HTTP_REQUEST') return 'TLS: a plain HTTP request came to the HTTPS port: the client must use https://';
  if (e.code === 'ECONNRESET') {
    return `TLS: the client closed the connection during the handshake, as a client that does not trust the certificate does: it must trust ${caFile}`;
  }
  if (/alert (unknown ca|bad certificate|certificate unknown|certificate expired|unsupported certificate)/.test(reason)) {
    return `TLS: the client refused the certificate (${reason}): it must trust ${caFile}`;
  }
  return `TLS: the handshake failed (${e.code ?? 'error'}: ${reason})`;
}

/** The idle timer of each connection (a number `keepAlive`): stopped by the next request, set after each answer. */
const idleTimers = new WeakMap<Socket, NodeJS.Timeout>();

/** Closes `socket` once it has idled `ms` after this answer, without announcing it. */
function closeWhenIdle(socket: Socket, res: ServerResponse, ms: number): void {
  clearTimeout(idleTimers.get(socket));
  res.on('finish', () => {
    const timer = setTimeout(() => socket.destroy(), ms);
    timer.unref();
    idleTimers.set(socket, timer);
  });
}

/** The JSON the recorder keeps of an answer: what was written (liberal), else the answer's own JSON. */
function recordedJson(ctx: SimContext, answer: Answer, payload: string | undefined): string | undefined {
  if (ctx.liberal) return payload;
  if ('error' in answer) return JSON.stringify({ detail: answer.error.detail });
  return answer.reply.json ?? (answer.reply.body === undefined ? undefined : JSON.stringify(answer.reply.body));
}

/** How long an answer is held back: the `slow` fault, plus the liberal sandbox's own delay. */
function holdMs(ctx: SimContext, req: IncomingMessage, path: string | null, answer: Answer): number {
  // timing.slow-answers: the liberal sandbox holds an answer a while of its own.
  const held =
    ctx.liberal && !answer.control
      ? ctx.liberal.delayMs(req.method, path, 'error' in answer ? answer.error.status : answer.reply.status)
      : 0;
  return (ctx.faults.has('slow') && !answer.control ? SLOW_MS : 0) + held;
}

/** The timers of answers held back (`slow`, liberal delays): `wait` holds one, `clear` drops them all at close. */
function heldAnswers(): { wait(ms: number): Promise<void>; clear(): void } {
  const timers = new Set<NodeJS.Timeout>();
  return {
    wait: (ms) =>
      new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          timers.delete(t);
          resolve();
        }, ms);
        timers.add(t);
      }),
    clear: () => {
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}

/** The request pipeline: body, then route, auth and handler, then the answer written (held back when asked), recorded and logged. */
function requestPipeline(
  ctx: SimContext,
  router: Router,
  wait: (ms: number) => Promise<void>,
): (req: IncomingMessage, res: ServerResponse) => void {
  // Synchronous unless the request has a body or the `slow` fault is on: polling is the hot path.
  const finish = (req: IncomingMessage, res: ServerResponse, path: string | null, body: BodyResult, started: number): void => {
    let answer: Answer;
    try {
      answer = dispatch(ctx, router, req, path, body);
    } catch (e) {
      answer = toAnswer(e);
    }
    const send = () => {
      const { status, payload } = write(ctx, req, path, res, answer);
      if (ctx.recorder) {
        ctx.recorder.request({
          req,
          path,
          raw: body.kind === 'ok' ? body.raw : null,
          status,
          answerJson: recordedJson(ctx, answer, payload),
          started,
          ended: performance.now(),
        });
      }
      ctx.options.onRequest?.(`${req.method} ${logPath(path)} ${status} ${Math.round(performance.now() - started)}ms`);
    };
    const delay = holdMs(ctx, req, path, answer);
    if (delay > 0) wait(delay).then(send, () => res.destroy());
    else send();
  };

  return (req: IncomingMessage, res: ServerResponse): void => {
    const started = performance.now();
    const path = pathOf(req.url);
    const body = readBody(req);
    if (body instanceof Promise)
      body.then(
        (b) => finish(req, res, path, b, started),
        () => res.destroy(),
      );
    else finish(req, res, path, body, started);
  };
}

/**
 * Reports each connection that ended in its TLS handshake, and each that closed after it without a
 * request (`served`: the sockets that carried one; `closing`: true once the server stops).
 */
function reportTlsFailures(server: Server, ctx: SimContext, tls: SimServerTls, served: WeakSet<Socket>, closing: () => boolean): void {
  const report = ctx.options.onTlsError;
  server.on('tlsClientError', (err: NodeJS.ErrnoException) => report?.(tlsErrorLine(err, tls.caFile)));
  // A client that checks the certificate only after the handshake (TLS 1.2) closes here, before any request.
  server.on('secureConnection', (socket: Socket) =>
    socket.once('close', () => {
      if (!served.has(socket) && !closing()) {
        report?.(
          `TLS: a connection closed after its handshake without a request, as a client that refuses the certificate does: it must trust ${tls.caFile}`,
        );
      }
    }),
  );
}

/** Malformed HTTP never reaches the handler: answer it in JSON too, then drop the connection. */
function answerMalformedHttp(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || err.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const payload = JSON.stringify({ detail: `malformed HTTP request (${err.code ?? 'unknown'})` });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\n` +
        `content-length: ${Buffer.byteLength(payload)}\r\nconnection: close\r\n\r\n${payload}`,
    );
  });
}

/** Builds (but does not start) the HTTP server; with `tls`, an HTTPS server. */
export function createSimServer(ctx: SimContext, router: Router, tls?: SimServerTls): SimServer {
  const held = heldAnswers();
  const handle = requestPipeline(ctx, router, held.wait);
  const keepAlive = ctx.options.keepAlive;
  /** TLS connections that carried a request (one that closes without any is reported). */
  const served = new WeakSet<Socket>();
  let closing = false;
  // A number: Node keeps no timer of its own (and announces none); the idle close is ours, unannounced.
  const httpOptions: ServerOptions = {
    requestTimeout: 60_000,
    headersTimeout: 20_000,
    keepAliveTimeout: typeof keepAlive === 'number' ? 0 : 5_000,
  };
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    res.on('error', () => undefined);
    if (tls) served.add(req.socket);
    if (keepAlive === 'close') res.shouldKeepAlive = false;
    else if (typeof keepAlive === 'number') closeWhenIdle(req.socket, res, keepAlive);
    try {
      handle(req, res);
    } catch {
      res.destroy();
    }
  };
  const server = tls
    ? createHttpsServer({ ...httpOptions, key: tls.key, cert: tls.cert }, onRequest)
    : createServer(httpOptions, onRequest);

  if (tls) reportTlsFailures(server, ctx, tls, served, () => closing);
  answerMalformedHttp(server);

  return {
    server,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        held.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
