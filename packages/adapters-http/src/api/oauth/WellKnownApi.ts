import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { NotFound } from "../shared/index.ts"

/** Where the MCP server's Streamable HTTP endpoint is served: a protected resource of its own (RFC 9728 §3.1). */
export const MCP_PATH = "/mcp"

/** RFC 8414 authorization server metadata. */
export const AuthorizationServerMetadata = Schema.Struct({
  issuer: Schema.String,
  authorization_endpoint: Schema.String,
  token_endpoint: Schema.String,
  registration_endpoint: Schema.String,
  revocation_endpoint: Schema.String,
  response_types_supported: Schema.Array(Schema.String),
  response_modes_supported: Schema.Array(Schema.String),
  grant_types_supported: Schema.Array(Schema.String),
  code_challenge_methods_supported: Schema.Array(Schema.String),
  token_endpoint_auth_methods_supported: Schema.Array(Schema.String),
  revocation_endpoint_auth_methods_supported: Schema.Array(Schema.String),
  scopes_supported: Schema.Array(Schema.String),
  authorization_response_iss_parameter_supported: Schema.Boolean,
  service_documentation: Schema.String
})

/** RFC 9728 protected resource metadata. */
export const ProtectedResourceMetadata = Schema.Struct({
  resource: Schema.String,
  authorization_servers: Schema.Array(Schema.String),
  scopes_supported: Schema.Array(Schema.String),
  bearer_methods_supported: Schema.Array(Schema.String),
  resource_name: Schema.String,
  resource_documentation: Schema.String
})

/** OAuth discovery documents. */
export class WellKnownApi extends HttpApiGroup.make("wellKnown").add(
  HttpApiEndpoint.get("authorizationServer", "/.well-known/oauth-authorization-server", {
    success: AuthorizationServerMetadata
  })
    .annotate(OpenApi.Summary, "Get authorization server metadata")
    .annotate(
      OpenApi.Description,
      "RFC 8414 authorization server metadata; `issuer` is the configured PUBLIC_BASE_URL."
    ),
  HttpApiEndpoint.get("protectedResource", "/.well-known/oauth-protected-resource", {
    success: ProtectedResourceMetadata
  })
    .annotate(OpenApi.Summary, "Get protected resource metadata")
    .annotate(
      OpenApi.Description,
      'RFC 9728 protected resource metadata, referenced from `WWW-Authenticate: Bearer resource_metadata="…"`: ' +
        "the resource is the whole API at PUBLIC_BASE_URL (the `/treasury` and business-finance routes). OAuth " +
        "access tokens are not /v1 credentials."
    ),
  HttpApiEndpoint.get("protectedResourceAtPath", "/.well-known/oauth-protected-resource/:resource", {
    params: { resource: Schema.String },
    success: ProtectedResourceMetadata,
    error: NotFound
  })
    .annotate(OpenApi.Summary, "Get the protected resource metadata of a path")
    .annotate(
      OpenApi.Description,
      "RFC 9728 §3.1 metadata of the protected resource at `PUBLIC_BASE_URL/<resource>`, the document MCP clients " +
        "ask first: `mcp` is the MCP server's Streamable HTTP endpoint (`resource` is `PUBLIC_BASE_URL/mcp`, " +
        'its scopes the spend scopes); its 401 challenge names this document in `resource_metadata="…"`. Any ' +
        "other path answers 404 `not_found`."
    )
) {}
