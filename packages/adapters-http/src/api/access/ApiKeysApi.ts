import { ApiKeyView, OAUTH_SCOPES } from "@svc/domain/model"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  CommonErrors,
  Forbidden,
  ListOf,
  ListQuery,
  NotFound,
  SessionAuth,
  UuidParam,
  WithSecret
} from "../shared/index.ts"

/** A generic API key as lists show it: never the secret. */
export const ApiKeyResponse = ApiKeyView

/** A key just created: the raw value is in `secret`, shown this once. */
export const CreatedApiKeyResponse = WithSecret(ApiKeyResponse)

export const CreateApiKeyRequest = Schema.Struct({
  name: Schema.String.check(
    Schema.isTrimmed({ message: "must not start or end with spaces" }),
    Schema.isBetweenLength(1, 200)
  ),
  scopes: Schema.optionalKey(Schema.Array(Schema.Literals(OAUTH_SCOPES)).check(Schema.isMaxLength(OAUTH_SCOPES.length)))
})

/** Generic API keys (`svcapi_`) of the session user's current team. */
export class ApiKeysApi extends HttpApiGroup.make("apiKeys")
  .add(
    HttpApiEndpoint.post("create", "/api-keys", {
      payload: CreateApiKeyRequest,
      success: CreatedApiKeyResponse.pipe(HttpApiSchema.status(201)),
      error: [...CommonErrors, Forbidden]
    })
      .annotate(OpenApi.Summary, "Create an API key")
      .annotate(
        OpenApi.Description,
        "Creates a generic API key for the caller's current team. It acts as the caller, on the business-finance " +
          "routes, GET /users/me and GET /teams, limited to `scopes` when given (any OAuth-scheme scope; omitted = " +
          "every scope). The raw key is returned once in `secret`. 403 `team_required` without a current team."
      ),
    HttpApiEndpoint.get("list", "/api-keys", {
      query: ListQuery,
      success: ListOf(ApiKeyResponse),
      error: [...CommonErrors, Forbidden]
    })
      .annotate(OpenApi.Summary, "List API keys")
      .annotate(
        OpenApi.Description,
        "The team's generic API keys, newest first, revoked ones included; never the secret."
      ),
    HttpApiEndpoint.delete("revoke", "/api-keys/:id", {
      params: { id: UuidParam },
      success: ApiKeyResponse,
      error: [...CommonErrors, Forbidden, NotFound]
    })
      .annotate(OpenApi.Summary, "Revoke an API key")
      .annotate(
        OpenApi.Description,
        "Revokes a key at once (idempotent). Members revoke their own keys; owners and admins any key of the team."
      )
  )
  .middleware(SessionAuth) {}
