import type { CreatedBy } from '../../contract';
import type { MemberRow } from '../db/caches';

/**
 * Who is calling: the member signed in (login token, dashboard session), or the API key that
 * opened the request (with the member who made it). The authenticated request carries exactly this
 * (Express.User, server/auth/passport.ts); routers hand it to services as it is (callerOf).
 */
export type Caller = {
  /** The token version: a statement that writes money checks the member still holds it. */
  member: Pick<MemberRow, 'id' | 'email' | 'tokenVersion'>;
  apiKey: { id: string; name: string } | null;
};

/** Who changed something: a caller, the payer (public routes), or the service itself. */
export type Actor = Caller | 'payer' | 'system';

/**
 * What an audit entry and an event payload made by a caller say of it (DESIGN.md, "Teams, roles
 * and two-factor sign-in"): the member by id and e-mail, or the API key (not its maker: the key is
 * what acted, and it may outlive the member's role).
 */
export type CallerFields =
  | { actor: 'member'; memberId: string; memberEmail: string }
  | { actor: 'api_key'; apiKeyId: string; apiKeyName: string };

export function callerFields(caller: {
  member: Pick<MemberRow, 'id' | 'email'>;
  apiKey: Caller['apiKey'];
}): CallerFields {
  return caller.apiKey
    ? { actor: 'api_key', apiKeyId: caller.apiKey.id, apiKeyName: caller.apiKey.name }
    : { actor: 'member', memberId: caller.member.id, memberEmail: caller.member.email };
}

/** The fields an event adds for who caused it: a caller's, none for the payer or the service. */
export const eventActorFields = (actor: Actor | undefined) =>
  actor === undefined || typeof actor === 'string' ? {} : callerFields(actor);

/** An order's `createdBy`, from the same caller: null for the service (a subscription's period). */
export function createdByOf(caller: Caller | null): CreatedBy {
  if (!caller) return null;
  return caller.apiKey
    ? { apiKeyId: caller.apiKey.id }
    : { memberId: caller.member.id, email: caller.member.email };
}

/** An audit entry's `actor` column and the fields its data gains, for any actor. */
export function auditActor(actor: Actor): { actor: string; fields: Record<string, string> } {
  if (typeof actor === 'string') return { actor, fields: {} };
  const { actor: kind, ...fields } = callerFields(actor);
  return { actor: kind, fields };
}
