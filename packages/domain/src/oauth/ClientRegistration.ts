import { Clock, Effect, Result } from "effect"
import { generateSecret, hashSecret, isoOfMillis, newIdText } from "../shared/index.ts"
import { isWebUrl } from "./ApplicationDetails.ts"
import { CLIENT_ID_PREFIX, CLIENT_SECRET_PREFIX } from "./OAuthCredentials.ts"
import type { OAuthApplication, TokenEndpointAuthMethod } from "./OAuthEntities.ts"
import { type OAuthError, oauthError } from "./OAuthError.ts"
import { OAuthRepo } from "./OAuthRepo.ts"
import { checkRedirectUri } from "./RedirectUris.ts"
import { OAUTH_SCOPES, parseScope } from "./Scopes.ts"

const GRANT_TYPES = ["authorization_code", "refresh_token"]
const AUTH_METHODS: ReadonlyArray<TokenEndpointAuthMethod> = ["none", "client_secret_post", "client_secret_basic"]

/** RFC 7591 client metadata, as sent (unknown metadata is ignored before it gets here). */
export interface RegisterClient {
  readonly clientName: string
  readonly redirectUris: ReadonlyArray<string>
  readonly grantTypes?: ReadonlyArray<string> | undefined
  readonly tokenEndpointAuthMethod?: string | undefined
  readonly scope?: string | undefined
  readonly logoUri?: string | undefined
  readonly clientUri?: string | undefined
  readonly responseTypes?: ReadonlyArray<string> | undefined
}

/** A registered client and, for confidential clients, its secret (shown once). */
export interface RegisteredClient {
  readonly application: OAuthApplication
  readonly clientSecret: string | null
}

/** Client metadata after validation, with the defaults applied. */
interface ClientMetadata {
  readonly grantTypes: ReadonlyArray<string>
  readonly responseTypes: ReadonlyArray<string>
  readonly authMethod: TokenEndpointAuthMethod
  readonly scopes: ReadonlyArray<string> | null
}

/** Validates RFC 7591 metadata and applies its defaults; the first problem is an `OAuthError` naming the field. */
const clientMetadata = (input: RegisterClient): Result.Result<ClientMetadata, OAuthError> => {
  for (const [i, uri] of input.redirectUris.entries()) {
    const checked = checkRedirectUri(uri)
    if (Result.isFailure(checked)) {
      return Result.fail(oauthError("invalid_redirect_uri", `redirect_uris[${i}] ${checked.failure}`))
    }
  }
  const invalid = (description: string) => Result.fail(oauthError("invalid_client_metadata", description))
  const grantTypes = input.grantTypes ?? GRANT_TYPES
  const unknownGrant = grantTypes.find((g) => !GRANT_TYPES.includes(g))
  if (unknownGrant !== undefined) return invalid(`grant_types: unsupported grant type ${unknownGrant}`)
  if (!grantTypes.includes("authorization_code")) return invalid("grant_types must include authorization_code")
  const responseTypes = input.responseTypes ?? ["code"]
  if (responseTypes.some((r) => r !== "code")) return invalid("response_types: only code is supported")
  const method = input.tokenEndpointAuthMethod ?? "none"
  const authMethod = AUTH_METHODS.find((m) => m === method)
  if (authMethod === undefined) {
    return invalid(`token_endpoint_auth_method: expected one of ${AUTH_METHODS.join(", ")}`)
  }
  let scopes: ReadonlyArray<string> | null = null
  if (input.scope !== undefined) {
    const parsed = parseScope(input.scope, OAUTH_SCOPES)
    if (Result.isFailure(parsed)) {
      return invalid(parsed.failure === "" ? "scope: no scope given" : `scope: unknown scope ${parsed.failure}`)
    }
    scopes = parsed.success
  }
  for (const [field, value] of [
    ["logo_uri", input.logoUri],
    ["client_uri", input.clientUri]
  ] as const) {
    if (value !== undefined && !isWebUrl(value)) return invalid(`${field}: expected an http or https URL`)
  }
  return Result.succeed({ grantTypes, responseTypes, authMethod, scopes })
}

/** RFC 7591 dynamic client registration: a draft application without a team, and a secret for confidential clients. */
export const makeRegister = Effect.gen(function* () {
  const repo = yield* OAuthRepo
  return Effect.fn("OAuth.register")(function* (input: RegisterClient) {
    const metadata = yield* Effect.fromResult(clientMetadata(input))
    const clientSecret = metadata.authMethod === "none" ? null : yield* generateSecret(CLIENT_SECRET_PREFIX)
    const application: OAuthApplication = {
      id: yield* newIdText,
      clientId: yield* generateSecret(CLIENT_ID_PREFIX),
      clientSecretHash: clientSecret === null ? null : yield* hashSecret(clientSecret),
      name: input.clientName,
      description: null,
      overview: null,
      developerName: null,
      logoUrl: input.logoUri ?? null,
      website: input.clientUri ?? null,
      installUrl: null,
      screenshots: [],
      redirectUris: [...new Set(input.redirectUris)],
      scopes: metadata.scopes,
      grantTypes: [...new Set(metadata.grantTypes)],
      responseTypes: [...new Set(metadata.responseTypes)],
      tokenEndpointAuthMethod: metadata.authMethod,
      status: "draft",
      teamId: null,
      createdAt: isoOfMillis(yield* Clock.currentTimeMillis)
    }
    yield* repo.insertApplication(application)
    return { application, clientSecret } satisfies RegisteredClient
  })
})
