import { Result, Schema, Struct } from "effect"
import { OAuthApplication, type OAuthApplicationStatus } from "./OAuthEntities.ts"
import { checkRedirectUri } from "./RedirectUris.ts"
import { OAUTH_SCOPES } from "./Scopes.ts"

/** Whether a value is an absolute http or https URL of at most 2000 characters. */
export const isWebUrl = (value: string): boolean => {
  try {
    const url = new URL(value)
    return (url.protocol === "https:" || url.protocol === "http:") && value.length <= 2000
  } catch {
    return false
  }
}

const WebUrl = Schema.String.check(
  Schema.makeFilter((value: string) => isWebUrl(value) || "expected an http or https URL of at most 2000 characters")
)

/** A redirect URI a team registers for its application, by the rule `/oauth/register` applies (`checkRedirectUri`). */
export const RedirectUri = Schema.String.check(
  Schema.makeFilter((uri: string) =>
    Result.match(checkRedirectUri(uri), { onSuccess: () => true, onFailure: (e) => e })
  )
)

const Text = (max: number) =>
  Schema.String.check(Schema.isTrimmed({ message: "must not start or end with spaces" }), Schema.isMaxLength(max))

/** What a team says about its OAuth application: shown on the consent screen, checked at authorization. */
export const ApplicationDetails = Schema.Struct({
  name: Text(256).check(Schema.isMinLength(1)),
  description: Schema.NullOr(Text(1000)),
  overview: Schema.NullOr(Text(10_000)),
  developerName: Schema.NullOr(Text(256)),
  logoUrl: Schema.NullOr(WebUrl),
  website: Schema.NullOr(WebUrl),
  installUrl: Schema.NullOr(WebUrl),
  screenshots: Schema.Array(WebUrl).check(Schema.isMaxLength(4)),
  redirectUris: Schema.Array(RedirectUri).check(Schema.isMinLength(1), Schema.isMaxLength(20)),
  scopes: Schema.Array(Schema.Literals(OAUTH_SCOPES)).check(
    Schema.isMinLength(1),
    Schema.isMaxLength(OAUTH_SCOPES.length)
  )
})
export type ApplicationDetails = typeof ApplicationDetails.Type

/**
 * The review path of an application: a draft is submitted (`pending`), then `approved` or `rejected`; a pending
 * application may go back to `draft`, a rejected one be submitted again, and an approved one be rejected (which stops
 * it at the authorization and token endpoints).
 */
const TRANSITIONS: Readonly<Record<OAuthApplicationStatus, ReadonlyArray<OAuthApplicationStatus>>> = {
  draft: ["pending"],
  pending: ["approved", "rejected", "draft"],
  approved: ["rejected"],
  rejected: ["pending"]
}

/** Whether an application may move from `from` to `to`. */
export const mayTransition = (from: OAuthApplicationStatus, to: OAuthApplicationStatus): boolean =>
  TRANSITIONS[from].includes(to)

/** The fields of an application its team sees as they are stored. */
const VIEWED = [
  "id",
  "clientId",
  "name",
  "description",
  "overview",
  "developerName",
  "logoUrl",
  "website",
  "installUrl",
  "screenshots",
  "redirectUris",
  "scopes",
  "status",
  "createdAt"
] as const

/** An OAuth application as its team manages it: never its client secret (nor the secret's hash). */
export const OAuthApplicationView = Schema.Struct({
  ...Struct.pick(OAuthApplication.fields, VIEWED),
  object: Schema.Literal("oauth_application"),
  confidential: Schema.Boolean
})
export type OAuthApplicationView = typeof OAuthApplicationView.Type

/** The view of an application; `confidential` says whether it authenticates with a client secret. */
export const oauthApplicationView = (app: OAuthApplication): OAuthApplicationView => ({
  ...Struct.pick(app, VIEWED),
  object: "oauth_application",
  confidential: app.clientSecretHash !== null
})
