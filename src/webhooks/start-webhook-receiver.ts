import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createSecureContext } from 'node:tls';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ToolkitError } from '../core/errors.ts';
import type { Delivery, DeliveryCounts, DeliveryListener, SignatureState } from './delivery.ts';
import { DeliveryLog, type WaitForOptions } from './delivery-log.ts';
import { parseDeliveryBody } from './parse-delivery-body.ts';
import { readBody } from './read-body.ts';
import { verifySignature } from './verify-signature.ts';

/** Options of {@link startWebhookReceiver}. */
export interface WebhookReceiverOptions {
  /** Address to listen on. @default '127.0.0.1' */
  host?: string;
  /** Port to listen on; 0 picks a free one. @default 0 */
  port?: number;
  /**
   * The pairing's `webhook_secret_key`, or null when it is not known yet (it arrives with the pairing
   * answer, after the URL was given): signed deliveries are then recorded `unchecked` until
   * {@link WebhookReceiver.setSecret}. @default null
   */
  secret?: string | null;
  /** Largest body read; a larger one is answered 413. @default 1048576 (1 MiB) */
  maxBodyBytes?: number;
  /** Answer 500 to the first N deliveries that would otherwise be accepted, to observe retries. @default 0 */
  failFirst?: number;
  /** The URL to give the service when it cannot reach loopback (a tunnel). @default undefined */
  publicUrl?: string;
}

/** A running receiver. Deliveries are accepted on any path; only POST is allowed (else 405). */
export interface WebhookReceiver {
  /** The URL to give at pairing: `publicUrl` when set, else {@link loopbackUrl}. */
  readonly url: string;
  /** `http://<host>:<port>/webhook` of the listening socket. */
  readonly loopbackUrl: string;
  /** The port actually listened on. */
  readonly port: number;
  /** Sets (or clears) the secret; a string re-verifies the deliveries recorded `unchecked`. */
  setSecret(key: string | null): void;
  /** Answers 500 to the next `n` deliveries that would otherwise be accepted (replaces any budget left). */
  failNext(n: number): void;
  /** All deliveries in arrival order. */
  deliveries(): Delivery[];
  /** Totals over all deliveries. */
  counts(): DeliveryCounts;
  /** The first delivery, past or future, matching `predicate`; rejects PCC_TIMEOUT on timeout. */
  waitFor(predicate: (d: Delivery) => boolean, options?: WaitForOptions): Promise<Delivery>;
  /** Valid accepted deliveries about a transaction or operation id, in arrival order. */
  eventsFor(transactionOrOperationId: string): Delivery[];
  /** Calls `listener` for each new delivery; returns the unsubscribe. */
  onDelivery(listener: DeliveryListener): () => void;
  /** Stops listening, closes every connection (keep-alive ones too), rejects pending waits. */
  close(): Promise<void>;
}

const REDACTED_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);

/**
 * Starts a webhook receiver: reads each POST's raw bytes, verifies the `Signature` header over exactly
 * those bytes, records the delivery and answers 200 (accepted, duplicates too), 403 (unsigned or
 * wrongly signed), 400 (body not a JSON object), 413 (over `maxBodyBytes`), 500 (on purpose) or 405
 * (not POST, not recorded). Garbage and dropped connections are ignored, never fatal. Deliveries are
 * accepted on any path; a run with several pairings uses one {@link startWebhookHub} instead.
 *
 * @throws ToolkitError PCC_WEBHOOK_LISTEN when it cannot listen on the address
 */
export async function startWebhookReceiver(options: WebhookReceiverOptions = {}): Promise<WebhookReceiver> {
  const { host = '127.0.0.1', port = 0, maxBodyBytes = 1024 * 1024, publicUrl } = options;
  const slot = new ReceiverSlot(options.secret ?? null, options.failFirst ?? 0);
  const server = await listenForDeliveries(host, port, (req, res) => slot.receive(req, res, maxBodyBytes));
  const loopbackUrl = `${loopbackBase(host, server.port)}/webhook`;
  let closed: Promise<void> | undefined;
  return slot.receiver({ url: publicUrl ?? loopbackUrl, loopbackUrl, port: server.port }, () => {
    if (!closed) {
      slot.close();
      closed = server.close();
    }
    return closed;
  });
}

/**
 * One receiver's state: its delivery log, its key and its budget of failures on purpose. The HTTP side
 * (one server for one receiver, or a hub routing by path) hands it each request.
 */
export class ReceiverSlot {
  readonly log = new DeliveryLog();
  #secret: string | null;
  #failBudget: number;

  constructor(secret: string | null, failFirst: number) {
    this.#secret = secret;
    this.#failBudget = Math.max(0, failFirst);
  }

  /** Reads, verifies, records and answers one request. */
  async receive(req: IncomingMessage, res: ServerResponse, maxBodyBytes: number): Promise<void> {
    const log = this.log;
    if (req.method !== 'POST') {
      req.resume();
      return answer(res, 405, 'only POST is accepted', { allow: 'POST' });
    }
    const receivedAt = Date.now();
    const read = await readBody(req, maxBodyBytes);
    if (read.kind === 'aborted') return;
    const headers = recordedHeaders(req);
    const header = headers['signature'];
    const base = {
      receivedAt,
      receivedAtIso: new Date(receivedAt).toISOString(),
      method: req.method,
      path: req.url ?? '/',
      headers,
    };
    if (read.kind === 'too-large') {
      const signature: SignatureState = header ? 'unchecked' : 'missing';
      log.record(
        {
          ...base,
          rawBody: '',
          body: undefined,
          event: undefined,
          eventId: undefined,
          signature,
          malformed: false,
          tooLarge: true,
          status: 413,
          failedOnPurpose: false,
        },
        Buffer.alloc(0),
      );
      return answer(res, 413, `body over ${maxBodyBytes} bytes`, { connection: 'close' });
    }
    const parsed = parseDeliveryBody(read.bytes);
    const signature: SignatureState = !header
      ? 'missing'
      : this.#secret === null
        ? 'unchecked'
        : verifySignature(read.bytes, header, this.#secret);
    let status = 200;
    let failedOnPurpose = false;
    if (signature === 'missing' || signature === 'invalid') status = 403;
    else if (parsed.malformed) status = 400;
    else if (this.#failBudget > 0) {
      this.#failBudget--;
      status = 500;
      failedOnPurpose = true;
    }
    log.record(
      {
        ...base,
        rawBody: parsed.text,
        body: parsed.body,
        event: parsed.event,
        eventId: parsed.eventId,
        signature,
        malformed: parsed.malformed,
        tooLarge: false,
        status,
        failedOnPurpose,
      },
      read.bytes,
    );
    if (status === 200) return answer(res, 200);
    const reasons: Record<number, string> = {
      403: signature === 'missing' ? 'missing Signature header' : 'signature does not match the body',
      400: 'body is not a JSON object',
      500: 'failed on purpose (test of retries)',
    };
    return answer(res, status, reasons[status] ?? 'rejected');
  }

  /** Rejects pending waits; later deliveries are refused by whoever routes to this slot. */
  close(): void {
    this.log.close();
  }

  /** The {@link WebhookReceiver} view of this slot. */
  receiver(where: { url: string; loopbackUrl: string; port: number }, close: () => Promise<void>): WebhookReceiver {
    const log = this.log;
    return {
      ...where,
      setSecret: (key) => {
        this.#secret = key;
        if (key !== null) log.reverify(key);
      },
      failNext: (n) => {
        this.#failBudget = Math.max(0, Math.floor(n));
      },
      deliveries: () => log.all(),
      counts: () => log.counts(),
      waitFor: (predicate, waitOptions) => log.waitFor(predicate, waitOptions),
      eventsFor: (id) => log.eventsFor(id),
      onDelivery: (listener) => log.onDelivery(listener),
      close,
    };
  }
}

/** A listening server for deliveries, and how to stop it (keep-alive connections too). */
export interface DeliveryServer {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Whether the receiver will be able to listen on `host:port`: binds it and lets it go. Run before a
 * run starts, so a busy fixed port is one usage error, not an error in every test.
 * @throws ToolkitError PCC_WEBHOOK_LISTEN saying what to change
 */
export async function assertCanListen(host: string, port: number): Promise<void> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new ToolkitError(
          'PCC_WEBHOOK_LISTEN',
          `the webhook receiver cannot listen on ${host}:${port} (${error.code ?? error.message})`,
          `pass another --webhook-listen <host:port> (port 0 picks a free one), or stop what listens on ${port}`,
          { cause: error },
        ),
      ),
    );
    server.listen({ host, port }, () => resolve());
  });
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * Listens on `host:port` and hands every request to `handle`; a bug in it answers 500 (the sender
 * retries) instead of killing the process.
 *
 * @throws ToolkitError PCC_WEBHOOK_LISTEN when it cannot listen on the address
 */
export async function listenForDeliveries(
  host: string,
  port: number,
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  tls?: DeliveryTls,
): Promise<DeliveryServer> {
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    req.on('error', () => {});
    res.on('error', () => {});
    handle(req, res).catch(() => {
      if (!res.headersSent) answer(res, 500, 'internal error of the receiver');
      else res.destroy();
    });
  };
  // HTTPS for a service that posts only to https URLs (--webhook-tls-cert/-key), else HTTP.
  const server = tls ? createHttpsServer({ cert: tls.cert, key: tls.key }, onRequest) : createServer(onRequest);
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  server.on('clientError', (_err: Error, socket: Socket) => {
    if (socket.writable && !socket.destroyed) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException): void => {
      reject(
        new ToolkitError(
          'PCC_WEBHOOK_LISTEN',
          `the webhook receiver could not listen on ${host}:${port} (${error.code ?? error.message})`,
          'choose another port (0 picks a free one) or a host address of this machine',
          { cause: error },
        ),
      );
    };
    server.once('error', onError);
    server.listen({ host, port }, () => {
      server.off('error', onError);
      resolve();
    });
  });
  server.on('error', () => {});
  let closed: Promise<void> | undefined;
  return {
    port: (server.address() as AddressInfo).port,
    close() {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

/** Answers with an optional `{detail}` JSON body. */
export function answer(res: ServerResponse, status: number, detail?: string, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const body = detail === undefined ? '' : JSON.stringify({ detail });
  res.writeHead(status, {
    ...headers,
    ...(detail === undefined ? {} : { 'content-type': 'application/json' }),
    'content-length': String(Buffer.byteLength(body)),
  });
  res.end(body);
}

function recordedHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    out[name] = REDACTED_HEADERS.has(name) ? '[redacted]' : Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** `http://<host>:<port>` with a host usable in a URL: wildcard addresses become loopback, IPv6 gets brackets. */
export function loopbackBase(host: string, port: number, scheme: 'http' | 'https' = 'http'): string {
  const h = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
  return `${scheme}://${h}:${port}`;
}

/** The certificate and key a receiver serves HTTPS with (PEM). */
export interface DeliveryTls {
  cert: string | Buffer;
  key: string | Buffer;
}

/**
 * Reads the receiver's HTTPS certificate and key, and checks they belong together, so a wrong file
 * stops the run before it starts rather than at the first delivery.
 *
 * @throws ToolkitError PCC_CONFIG_INVALID naming the file
 */
export function readDeliveryTls(files: { certFile: string; keyFile: string }): DeliveryTls {
  const read = (path: string, flag: string) => {
    try {
      return readFileSync(path);
    } catch (e) {
      throw new ToolkitError(
        'PCC_CONFIG_INVALID',
        `${flag} ${path} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
        `check the path given to ${flag}`,
        { cause: e },
      );
    }
  };
  const tls = { cert: read(files.certFile, '--webhook-tls-cert'), key: read(files.keyFile, '--webhook-tls-key') };
  try {
    createSecureContext(tls);
  } catch (e) {
    throw new ToolkitError(
      'PCC_CONFIG_INVALID',
      `--webhook-tls-cert ${files.certFile} and --webhook-tls-key ${files.keyFile} cannot serve HTTPS: ${(e as Error).message}`,
      'give a PEM certificate and the unencrypted PEM key that belongs to it',
      { cause: e },
    );
  }
  return tls;
}
