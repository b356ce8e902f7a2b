/**
 * Safety of a URL target: production needs an explicit opt-in, and the target must answer HTTP
 * before anything is sent that changes state.
 */
import { request } from 'undici';
import { ToolkitError } from '../core/index.ts';
import type { Profile } from '../profile/index.ts';

/** Refuses the vendor's production hosts unless `allowProduction`. */
export function assertTargetAllowed(baseUrl: string, profile: Profile, allowProduction: boolean): void {
  const host = new URL(baseUrl).hostname.toLowerCase();
  if (!allowProduction && profile.productionHosts.some((h) => host === h || host.endsWith(`.${h}`))) {
    throw new ToolkitError('PCC_TARGET_PRODUCTION', `${baseUrl} is the vendor's production service: a conformance run starts real transactions there`, 'point --target at a sandbox or staging address, or pass --allow-production if you mean it');
  }
}

/** Checks that the target answers HTTP at all (any status will do). */
export async function assertReachable(baseUrl: string, timeoutMs = 5000): Promise<void> {
  try {
    const res = await request(new URL('/v1/pay-connect/config/', baseUrl), { method: 'GET', headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    await res.body.dump();
  } catch (e) {
    const code = (e as { code?: string }).code ?? (e as Error).name;
    throw new ToolkitError('PCC_TARGET_UNREACHABLE', `${baseUrl} did not answer (${code})`, 'check the --target address and that the service (or `payconnect-conformance sim`) is running', { cause: e });
  }
}
