import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"

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
export class WellKnownApi extends HttpApiGroup.make("wellKnown")
  .add(
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
        'RFC 9728 protected resource metadata, referenced from `WWW-Authenticate: Bearer resource_metadata="…"`.'
      )
  )
  .annotate(OpenApi.Description, "OAuth discovery") {}
