import { Context, type Effect, type Option, type Redacted } from "effect"
import type { PageRequest, PersistenceUnavailable, TeamId, UserId } from "../shared/model.ts"
import type { MailAppNotConfigured, MailCallbackInvalid, MailProviderFailed } from "./MailErrors.ts"
import type { InboxAccountId, MailInboxAccount } from "./MailInboxAccount.ts"

/** Storage of inbox accounts: one per (team, address); removed when disconnected. */
export class InboxAccountsRepo extends Context.Service<
  InboxAccountsRepo,
  {
    /**
     * Stores the account, or, when the team already has one for its address, replaces that one's tokens, expiry,
     * status, error and connector (keeping its id and creation time); answers what is stored.
     */
    readonly upsert: (account: MailInboxAccount) => Effect.Effect<MailInboxAccount, PersistenceUnavailable>
    readonly find: (id: InboxAccountId) => Effect.Effect<Option.Option<MailInboxAccount>, PersistenceUnavailable>
    /** The team's accounts, newest first, by cursor, up to `page.limit + 1`. */
    readonly list: (
      teamId: TeamId,
      page: PageRequest
    ) => Effect.Effect<ReadonlyArray<MailInboxAccount>, PersistenceUnavailable>
    /** Deletes the account; none when it is unknown. */
    readonly remove: (id: InboxAccountId) => Effect.Effect<Option.Option<MailInboxAccount>, PersistenceUnavailable>
  }
>()("@svc/domain/InboxAccountsRepo") {}

/** What an authorization code is worth: the account's tokens (in clear, to be sealed) and its verified address. */
export interface MailGrant {
  readonly accessToken: Redacted.Redacted<string>
  readonly refreshToken: Redacted.Redacted<string> | null
  /** How long the access token lives, when the provider says. */
  readonly expiresInSeconds: number | null
  readonly email: string
}

/** The mail provider's OAuth 2.0 endpoints, as the service's registered app. */
export class MailProvider extends Context.Service<
  MailProvider,
  {
    /** The provider's authorization URL for the app, carrying `state`. */
    readonly authorizeUrl: (state: string) => Effect.Effect<string, MailAppNotConfigured>
    /** Exchanges the code for tokens and reads the verified address they reach. */
    readonly exchangeCode: (code: string) => Effect.Effect<MailGrant, MailProviderFailed | MailAppNotConfigured>
    /** Revokes a token (and, at the provider, the grant it belongs to). */
    readonly revoke: (
      token: Redacted.Redacted<string>
    ) => Effect.Effect<void, MailProviderFailed | MailAppNotConfigured>
  }
>()("@svc/domain/MailProvider") {}

/**
 * Who started a mailbox connection, what its `state` names: the team and person, the state's one-time nonce and the
 * hash of the secret the browser that asked for it holds (ADR 0042).
 */
export interface MailState {
  readonly teamId: TeamId
  readonly userId: UserId
  readonly nonce: string
  readonly browserHash: string
}

/** Turns a connection's state into the opaque, encrypted `state` parameter and back. */
export class MailStateCodec extends Context.Service<
  MailStateCodec,
  {
    /** The encrypted state, valid until `expiresAtMillis`. */
    readonly encrypt: (state: MailState, expiresAtMillis: number) => Effect.Effect<string>
    /** The state, if the text is one this service encrypted and it has not expired at `nowMillis`. */
    readonly decrypt: (text: string, nowMillis: number) => Effect.Effect<MailState, MailCallbackInvalid>
  }
>()("@svc/domain/MailStateCodec") {}
