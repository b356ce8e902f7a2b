/**
 * One webhook receiver for a whole run: one port, one receiver per pairing, each at its own path
 * (`/webhooks/<slot>`), so a fixed `--webhook-listen` port and one tunnel (`--webhook-public-url`, a
 * base the same path is appended to) serve every pairing. Each slot keeps its own key, log and
 * failures on purpose, and answers exactly as a standalone receiver does.
 */
import { ToolkitError } from '../core/errors.ts';
import {
  type DeliveryTls,
  ReceiverSlot,
  type WebhookReceiver,
  answer,
  listenForDeliveries,
  loopbackBase,
} from './start-webhook-receiver.ts';

/** Options of {@link startWebhookHub}. */
export interface WebhookHubOptions {
  /** Address to listen on. @default '127.0.0.1' */
  host?: string;
  /** Serve HTTPS with this certificate and key (a service that posts only to https URLs). @default HTTP */
  tls?: DeliveryTls;
  /** Port to listen on; 0 picks a free one. @default 0 */
  port?: number;
  /** The public base URL that forwards to this hub (a tunnel); slot paths are appended. @default undefined */
  publicUrl?: string;
  /** Largest body read; a larger one is answered 413. @default 1048576 (1 MiB) */
  maxBodyBytes?: number;
}

/** A running hub. */
export interface WebhookHub {
  readonly port: number;
  /** Where slot paths are appended: the public URL when given, else the loopback address. */
  readonly baseUrl: string;
  /** Opens the receiver of `slot` (a name unique in the run, e.g. the pairing's). */
  open(slot: string, options?: { secret?: string | null }): WebhookReceiver;
  /** Whether a slot of that name is open. */
  isOpen(slot: string): boolean;
  /** The slot a URL of this hub names, if it is one (a vault pairing's stored webhook_url). */
  slotOf(url: string): string | undefined;
  /** Requests that reached no open slot (answered 404). */
  stray(): number;
  /** Stops listening, closes every connection and every slot. */
  close(): Promise<void>;
}

const PREFIX = '/webhooks/';

/**
 * Starts a hub.
 *
 * @throws ToolkitError PCC_WEBHOOK_LISTEN when it cannot listen on the address
 */
export async function startWebhookHub(options: WebhookHubOptions = {}): Promise<WebhookHub> {
  const { host = '127.0.0.1', port = 0, maxBodyBytes = 1024 * 1024 } = options;
  const slots = new Map<string, ReceiverSlot>();
  let stray = 0;
  const server = await listenForDeliveries(
    host,
    port,
    async (req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      const name = path.startsWith(PREFIX) ? decodeSlot(path.slice(PREFIX.length).replace(/\/+$/, '')) : undefined;
      const slot = name === undefined ? undefined : slots.get(name);
      if (!slot) {
        stray++;
        req.resume();
        return answer(res, 404, 'no receiver at this path');
      }
      return slot.receive(req, res, maxBodyBytes);
    },
    options.tls,
  );
  const loopback = loopbackBase(host, server.port, options.tls ? 'https' : 'http');
  const baseUrl = (options.publicUrl ?? loopback).replace(/\/+$/, '');
  const urlOf = slotUrl;
  let closed: Promise<void> | undefined;
  return {
    port: server.port,
    baseUrl,
    open(name, opts = {}) {
      if (slots.has(name)) throw new ToolkitError('PCC_INTERNAL', `the webhook receiver ${name} is open already`);
      const slot = new ReceiverSlot(opts.secret ?? null, 0);
      slots.set(name, slot);
      return slot.receiver({ url: urlOf(baseUrl, name), loopbackUrl: urlOf(loopback, name), port: server.port }, async () => {
        if (slots.get(name) === slot) slots.delete(name);
        slot.close();
      });
    },
    isOpen: (name) => slots.has(name),
    slotOf(url) {
      const prefix = `${baseUrl}${PREFIX}`;
      if (!url.startsWith(prefix)) return undefined;
      return decodeSlot(url.slice(prefix.length).replace(/\/+$/, ''));
    },
    stray: () => stray,
    close() {
      closed ??= (async () => {
        for (const slot of slots.values()) slot.close();
        slots.clear();
        await server.close();
      })();
      return closed;
    },
  };
}

/** The URL of a hub's slot, under the hub's base URL (its loopback or public one). */
export function slotUrl(baseUrl: string, slot: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${PREFIX}${encodeURIComponent(slot)}`;
}

function decodeSlot(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
