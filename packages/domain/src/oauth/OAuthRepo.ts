import { Context, type Effect, type Option, Schema } from "effect"
import type { PersistenceUnavailable, TeamId, UserId } from "../shared/index.ts"

/** How a client authenticates at the token endpoint: `none` for public clients (PKCE required). */
export const TokenEndpointAuthMethod = Schema.Literals(["none", "client_secret_post", "client_secret_basic"])
export type TokenEndpointAuthMethod = typeof TokenEndpointAuthMethod.Type

/** Review status of an OAuth application (SPEC.md). */
export const OAuthApplicationStatus = Schema.Literals(["draft", "pending", "approved", "rejected"])
export type OAuthApplicationStatus = typeof OAuthApplicationStatus.Type

/** An OAuth client. `teamId` is null for a dynamically registered client until it is first authorized. */
export interface OAuthApplication {
  readonly id: string
  readonly clientId: string
  readonly clientSecretHash: string | null
  readonly name: string
  readonly description: string | null
  readonly overview: string | null
  readonly developerName: string | null
  readonly logoUrl: string | null
  readonly website: string | null
  readonly installUrl: string | null
  readonly screenshots: ReadonlyArray<string>
  readonly redirectUris: ReadonlyArray<string>
  /** The scopes the client registered for; null when it registered none (any OAuth scope may be asked for). */
  readonly scopes: ReadonlyArray<string> | null
  readonly grantTypes: ReadonlyArray<string>
  readonly responseTypes: ReadonlyArray<string>
  readonly tokenEndpointAuthMethod: TokenEndpointAuthMethod
  readonly status: OAuthApplicationStatus
  readonly teamId: TeamId | null
  readonly createdAt: string
}

/** An authorization code, stored under its hash; single use. `grantId` names the tokens it leads to. */
export interface AuthorizationCode {
  readonly codeHash: string
  readonly grantId: string
  readonly applicationId: string
  readonly teamId: TeamId
  readonly userId: UserId
  readonly scopes: ReadonlyArray<string>
  readonly redirectUri: string
  readonly codeChallenge: string | null
  readonly expiresAt: string
  readonly usedAt: string | null
  readonly createdAt: string
}

/** An access or refresh token, stored under its hash. Tokens of one grant form a family revoked together. */
export interface OAuthToken {
  readonly id: string
  readonly tokenHash: string
  readonly kind: "access" | "refresh"
  readonly grantId: string
  readonly applicationId: string
  readonly teamId: TeamId
  readonly userId: UserId
  readonly scopes: ReadonlyArray<string>
  readonly expiresAt: string
  /** Set when a refresh token has been exchanged; a second exchange is reuse. */
  readonly rotatedAt: string | null
  readonly revokedAt: string | null
  readonly createdAt: string
}

/** Storage of OAuth applications, authorization codes and tokens. */
export class OAuthRepo extends Context.Service<
  OAuthRepo,
  {
    readonly insertApplication: (app: OAuthApplication) => Effect.Effect<void, PersistenceUnavailable>
    readonly findApplicationByClientId: (
      clientId: string
    ) => Effect.Effect<Option.Option<OAuthApplication>, PersistenceUnavailable>
    readonly findApplication: (id: string) => Effect.Effect<Option.Option<OAuthApplication>, PersistenceUnavailable>
    /** Gives an application without a team to `teamId`; returns the owning team afterwards (unchanged if it had one). */
    readonly claimApplication: (id: string, teamId: TeamId) => Effect.Effect<TeamId | null, PersistenceUnavailable>
    readonly insertCode: (code: AuthorizationCode) => Effect.Effect<void, PersistenceUnavailable>
    readonly findCode: (codeHash: string) => Effect.Effect<Option.Option<AuthorizationCode>, PersistenceUnavailable>
    /** Marks an unused code used; false when it was already used (by this or a concurrent exchange). */
    readonly consumeCode: (codeHash: string, now: string) => Effect.Effect<boolean, PersistenceUnavailable>
    readonly insertToken: (token: OAuthToken) => Effect.Effect<void, PersistenceUnavailable>
    readonly findToken: (tokenHash: string) => Effect.Effect<Option.Option<OAuthToken>, PersistenceUnavailable>
    /** Marks a live refresh token exchanged; false when it was already exchanged or revoked. */
    readonly rotateRefreshToken: (id: string, now: string) => Effect.Effect<boolean, PersistenceUnavailable>
    readonly revokeToken: (id: string, now: string) => Effect.Effect<void, PersistenceUnavailable>
    /** Revokes every token of a grant that is not revoked yet. */
    readonly revokeGrant: (grantId: string, now: string) => Effect.Effect<void, PersistenceUnavailable>
    /** Deletes authorization codes and tokens that expired before the cutoff (ISO timestamp); returns how many. */
    readonly purgeExpiredBefore: (cutoff: string) => Effect.Effect<number, PersistenceUnavailable>
  }
>()("@svc/domain/OAuthRepo") {}
