import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js"
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens
} from "@modelcontextprotocol/sdk/shared/auth.js"

/** The redirect URI the MCP client registers (nothing listens there: the test reads the code from the redirect). */
export const MCP_REDIRECT = "http://127.0.0.1:7777/mcp-callback"

/**
 * An OAuth client provider kept in memory, as an MCP host would keep it: what the official client's `auth()` registers,
 * the PKCE verifier, the tokens; `authorizationUrl` is where it sent the user.
 */
export class MemoryOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined
  private information: OAuthClientInformationMixed | undefined
  private saved: OAuthTokens | undefined
  private verifier = ""

  private readonly scope: string

  constructor(scope: string) {
    this.scope = scope
  }

  get redirectUrl() {
    return MCP_REDIRECT
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "MCP test host",
      redirect_uris: [MCP_REDIRECT],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      scope: this.scope
    }
  }

  /** The service requires `state` on the authorization request (RFC 6749 10.12); the SDK sends it when asked. */
  state() {
    return crypto.randomUUID()
  }

  clientInformation() {
    return this.information
  }

  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information
  }

  tokens() {
    return this.saved
  }

  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens
  }

  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url
  }

  saveCodeVerifier(verifier: string) {
    this.verifier = verifier
  }

  codeVerifier() {
    return this.verifier
  }
}
