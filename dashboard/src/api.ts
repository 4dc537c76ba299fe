import type { KeyOperator } from '../../shared/accounts/schemas';
/**
 * Calls the API on the dashboard's own origin (the local host, or CloudFront's
 * /api/* behaviour in front of API Gateway), so no CORS is involved. The key
 * lives in this tab's sessionStorage only and travels in the Authorization header.
 */

const KEY_STORAGE = 'ota-dashboard.api-key';

export const storedKey = (): string | null => sessionStorage.getItem(KEY_STORAGE);
export const storeKey = (key: string): void => sessionStorage.setItem(KEY_STORAGE, key);
export const forgetKey = (): void => {
  sessionStorage.removeItem(KEY_STORAGE);
  signedInAs = undefined;
};

/** An API answer other than 2xx, with the problem+json detail when the API sent one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** The dashboard's own words for the statuses an operator can act on. */
export function describeError(error: unknown, scope: string): string {
  if (!(error instanceof ApiError)) return 'The API could not be reached. Check the connection and try again.';
  if (error.status === 401) return 'The API key was refused (401): it is invalid, expired or revoked. Sign in with a current key.';
  if (error.status === 403) return `This API key lacks the ${scope} scope (403). Ask for a key that has it.`;
  if (error.status === 429) return 'Too many requests (429). Wait a moment and try again.';
  return `${error.detail} (${error.status})`;
}

async function call(path: string, init: { method: 'GET' | 'POST' | 'PATCH'; body?: unknown }): Promise<Response> {
  const key = storedKey();
  if (!key) throw new ApiError(401, 'Not signed in');
  try {
    return await fetch(path, {
      method: init.method,
      headers: {
        Authorization: `Bearer ${key}`,
        Accept: 'application/json',
        ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      cache: 'no-store',
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
    });
  } catch {
    throw new Error('network');
  }
}

async function dataOf<T>(response: Response): Promise<T> {
  const body = await response.json().catch(() => undefined);
  if (!response.ok) {
    const detail = typeof body?.detail === 'string' ? body.detail : response.statusText || 'The request failed';
    throw new ApiError(response.status, detail);
  }
  return body.data as T;
}

export async function apiGet<T>(path: string, query: Record<string, string | undefined>): Promise<T> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) params.set(name, value);
  return dataOf<T>(await call(`${path}?${params}`, { method: 'GET' }));
}

export async function apiPost<T>(path: string, body: unknown): Promise<T> {
  return dataOf<T>(await call(path, { method: 'POST', body }));
}

export async function apiPatch<T>(path: string, body: unknown): Promise<T> {
  return dataOf<T>(await call(path, { method: 'PATCH', body }));
}

let signedInAs: Promise<KeyOperator> | undefined;

/** The key's operator (its name and time zone) and the key's scopes, asked once per sign-in. */
export function keyOperator(): Promise<KeyOperator> {
  signedInAs ??= apiGet<KeyOperator>('/api/v2/operator', {});
  // A failure is not remembered: the next panel asks again.
  signedInAs.catch(() => (signedInAs = undefined));
  return signedInAs;
}

/** Whether the key has a scope (bookings:write cancels, availability:write changes timeslots); false when that cannot be known. */
export const keyMay = (scope: 'bookings:write' | 'availability:write'): Promise<boolean> =>
  keyOperator().then(
    (signedIn) => signedIn.Key.Scopes.includes(scope),
    () => false,
  );

/** Whether the key may cancel bookings (scope bookings:write). */
export const canCancelBookings = (): Promise<boolean> => keyMay('bookings:write');
