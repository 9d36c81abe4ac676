// The spec's error body ({message, kind?, code?, error?, error_id?, param?, status?}) and the HTTP error
// that services throw to produce it. Routes never build error bodies by hand.
import { Type, type Static } from '@sinclair/typebox';

export const ErrorBody = Type.Object(
  {
    message: Type.String(),
    kind: Type.Optional(Type.String()),
    code: Type.Optional(Type.String()),
    error: Type.Optional(Type.String()),
    error_id: Type.Optional(Type.String()),
    param: Type.Optional(Type.String()),
    status: Type.Optional(Type.Integer()),
  },
  { $id: 'ErrorBody', title: 'Error' },
);
export type ErrorBody = Static<typeof ErrorBody>;

export const MessageBody = Type.Object({ message: Type.String() }, { $id: 'MessageBody', title: 'Message' });

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string,
    readonly param?: string,
  ) {
    super(message);
  }
  body(): ErrorBody {
    const body: ErrorBody = { message: this.message, code: this.code, status: this.status };
    if (this.param) body.param = this.param;
    return body;
  }
}

export const badRequest = (message: string, param?: string) => new ApiError(400, message, 'invalid_request', param);
export const unauthorized = (message = 'missing or invalid API key') => new ApiError(401, message, 'unauthorized');
export const forbidden = (message: string) => new ApiError(403, message, 'forbidden');
export const notFound = (message: string, param?: string) => new ApiError(404, message, 'not_found', param);
export const conflict = (message: string, param?: string) => new ApiError(409, message, 'conflict', param);

/** Standard error responses for route schemas, so /openapi.json documents them. */
export function errorResponses(...statuses: number[]): Record<number, unknown> {
  const out: Record<number, unknown> = {};
  for (const s of statuses) out[s] = Type.Ref(ErrorBody);
  return out;
}

/**
 * An operation of the hosted platform that only its own data can answer (AI generation, domain
 * associations, leaked credentials). A 4xx rather than 501: 5xx is kept for faults of this server (the
 * fuzz and role tests hold every route to that), and 403 would read as a role's refusal.
 */
export const hostedOnly = (what: string) =>
  new ApiError(
    404,
    `${what} needs the hosted ProjectDiscovery platform's own data; this self-hosted Vigil has no source for it`,
    'hosted_only',
  );
