import { Schema } from "effect"
import { TeamId, UserId } from "../shared/model.ts"

/** How a client authenticates at the token endpoint: `none` for public clients (PKCE required). */
export const TokenEndpointAuthMethod = Schema.Literals(["none", "client_secret_post", "client_secret_basic"])
export type TokenEndpointAuthMethod = typeof TokenEndpointAuthMethod.Type

/** Review status of an OAuth application (SPEC.md). */
export const OAuthApplicationStatus = Schema.Literals(["draft", "pending", "approved", "rejected"])
export type OAuthApplicationStatus = typeof OAuthApplicationStatus.Type

/** An OAuth client. `teamId` is null for a dynamically registered client until it is first authorized. */
export const OAuthApplication = Schema.Struct({
  id: Schema.String,
  clientId: Schema.String,
  clientSecretHash: Schema.NullOr(Schema.String),
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  overview: Schema.NullOr(Schema.String),
  developerName: Schema.NullOr(Schema.String),
  logoUrl: Schema.NullOr(Schema.String),
  website: Schema.NullOr(Schema.String),
  installUrl: Schema.NullOr(Schema.String),
  screenshots: Schema.Array(Schema.String),
  redirectUris: Schema.Array(Schema.String),
  /** The scopes the client registered for; null when it registered none (any OAuth scope may be asked for). */
  scopes: Schema.NullOr(Schema.Array(Schema.String)),
  grantTypes: Schema.Array(Schema.String),
  responseTypes: Schema.Array(Schema.String),
  tokenEndpointAuthMethod: TokenEndpointAuthMethod,
  status: OAuthApplicationStatus,
  teamId: Schema.NullOr(TeamId),
  createdAt: Schema.String
})
export type OAuthApplication = typeof OAuthApplication.Type

/** An authorization code, stored under its hash; single use. `grantId` names the tokens it leads to. */
export const AuthorizationCode = Schema.Struct({
  codeHash: Schema.String,
  grantId: Schema.String,
  applicationId: Schema.String,
  teamId: TeamId,
  userId: UserId,
  scopes: Schema.Array(Schema.String),
  redirectUri: Schema.String,
  codeChallenge: Schema.NullOr(Schema.String),
  expiresAt: Schema.String,
  usedAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String
})
export type AuthorizationCode = typeof AuthorizationCode.Type

/** An access or refresh token, stored under its hash. Tokens of one grant form a family revoked together. */
export const OAuthToken = Schema.Struct({
  id: Schema.String,
  tokenHash: Schema.String,
  kind: Schema.Literals(["access", "refresh"]),
  grantId: Schema.String,
  applicationId: Schema.String,
  teamId: TeamId,
  userId: UserId,
  scopes: Schema.Array(Schema.String),
  expiresAt: Schema.String,
  /** Set when a refresh token has been exchanged; a second exchange is reuse. */
  rotatedAt: Schema.NullOr(Schema.String),
  revokedAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String
})
export type OAuthToken = typeof OAuthToken.Type
