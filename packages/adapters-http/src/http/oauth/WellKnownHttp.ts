import { OAUTH_SCOPES, SPEND_SCOPES } from "@svc/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../api/Api.ts"
import { MCP_PATH } from "../../api/oauth/index.ts"
import { notFound } from "../../api/shared/index.ts"
import { PublicBaseUrl } from "../middleware/index.ts"

const CLIENT_AUTH_METHODS = ["none", "client_secret_post", "client_secret_basic"]

export const WellKnownHttp = HttpApiBuilder.group(Api, "wellKnown", (handlers) =>
  Effect.gen(function* () {
    const base = yield* PublicBaseUrl
    const authorizationServer = {
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      revocation_endpoint: `${base}/oauth/revoke`,
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
      revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
      scopes_supported: [...OAUTH_SCOPES],
      authorization_response_iss_parameter_supported: true,
      service_documentation: `${base}/docs`
    }
    const protectedResource = {
      resource: base,
      authorization_servers: [base],
      scopes_supported: [...OAUTH_SCOPES],
      bearer_methods_supported: ["header"],
      resource_name: "Governed agent spend and business-finance API",
      resource_documentation: `${base}/docs`
    }
    const atPath = new Map([
      [
        MCP_PATH.slice(1),
        {
          ...protectedResource,
          resource: `${base}${MCP_PATH}`,
          scopes_supported: [...SPEND_SCOPES],
          resource_name: "Governed agent spend tools (MCP over Streamable HTTP)"
        }
      ]
    ])
    return handlers
      .handle("authorizationServer", () => Effect.succeed(authorizationServer))
      .handle("protectedResource", () => Effect.succeed(protectedResource))
      .handle("protectedResourceAtPath", ({ params }) => {
        const metadata = atPath.get(params.resource)
        return metadata === undefined
          ? Effect.fail(notFound(`no protected resource at /${params.resource}`))
          : Effect.succeed(metadata)
      })
  })
)
