import { assert, describe, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import { isCodeVerifier, isS256Challenge, s256Challenge, verifyS256 } from "../../src/oauth/Pkce.ts"
import { checkRedirectUri } from "../../src/oauth/RedirectUris.ts"
import { DECISION_SCOPES, formatScope, isSubset, OAUTH_SCOPES, parseScope } from "../../src/oauth/Scopes.ts"

describe("PKCE (RFC 7636)", () => {
  it.effect("S256 of the RFC 7636 appendix B verifier is the appendix's challenge", () =>
    Effect.gen(function* () {
      const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
      assert.strictEqual(yield* s256Challenge(verifier), "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
      assert.isTrue(yield* verifyS256(verifier, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"))
    })
  )

  it.effect("a different verifier, or a malformed one, does not verify", () =>
    Effect.gen(function* () {
      const challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
      assert.isFalse(yield* verifyS256("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXj", challenge))
      assert.isFalse(yield* verifyS256("too-short", challenge))
      assert.isFalse(yield* verifyS256(challenge, challenge), "sending the challenge as verifier (plain) fails")
    })
  )

  it("a verifier is 43..128 unreserved characters", () => {
    assert.isTrue(isCodeVerifier("a".repeat(43)))
    assert.isTrue(isCodeVerifier(`${"A".repeat(40)}-._~9`))
    assert.isTrue(isCodeVerifier("z".repeat(128)))
    assert.isFalse(isCodeVerifier("a".repeat(42)))
    assert.isFalse(isCodeVerifier("a".repeat(129)))
    assert.isFalse(isCodeVerifier(`${"a".repeat(42)}+`))
    assert.isFalse(isCodeVerifier(`${"a".repeat(42)}/`))
    assert.isFalse(isCodeVerifier(`${"a".repeat(42)} `))
    assert.isFalse(isCodeVerifier(`${"a".repeat(42)}é`))
  })

  it("an S256 challenge is 43 base64url characters", () => {
    assert.isTrue(isS256Challenge("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"))
    assert.isFalse(isS256Challenge("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-c"))
    assert.isFalse(isS256Challenge("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM="))
    assert.isFalse(isS256Challenge("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw+cM"))
  })
})

describe("redirect URIs", () => {
  const ok = (uri: string) => assert.isTrue(Result.isSuccess(checkRedirectUri(uri)), uri)
  const refused = (uri: string, reason: RegExp) => {
    const result = checkRedirectUri(uri)
    assert.isTrue(Result.isFailure(result), uri)
    if (Result.isFailure(result)) assert.match(result.failure, reason)
  }

  it("accepts https, http on localhost and 127.0.0.1 on any port, and private-use schemes", () => {
    ok("https://app.example.com/callback")
    ok("https://app.example.com/callback?tenant=1")
    ok("http://localhost/cb")
    ok("http://localhost:8976/oauth/callback")
    ok("http://127.0.0.1:53682/")
    ok("com.example.app:/oauth2redirect")
    ok("cursor://anysphere.cursor-mcp/oauth/callback")
  })

  it("refuses http elsewhere, look-alike hosts, fragments, credentials and dangerous schemes", () => {
    refused("http://app.example.com/cb", /http is allowed only/)
    refused("http://localhost.evil.com/cb", /http is allowed only/)
    refused("http://127.0.0.2/cb", /http is allowed only/)
    refused("http://[::1]:8080/cb", /http is allowed only/)
    refused("https://app.example.com/cb#frag", /fragment/)
    refused("https://user:pass@app.example.com/cb", /credentials/)
    refused("javascript:alert(1)", /not allowed/)
    refused("data:text/html,hi", /not allowed/)
    refused("file:///etc/passwd", /not allowed/)
    refused("/relative/path", /absolute/)
    refused("not a uri", /whitespace/)
    refused(`https://app.example.com/${"a".repeat(2000)}`, /2000/)
  })
})

describe("scopes", () => {
  it("parses a space-separated list, collapsing duplicates and extra spaces", () => {
    assert.deepStrictEqual(Result.getOrThrow(parseScope("users.read  teams.read users.read", OAUTH_SCOPES)), [
      "users.read",
      "teams.read"
    ])
  })

  it("names the first unknown scope, and fails on an empty list", () => {
    assert.deepStrictEqual(parseScope("users.read users.admin", OAUTH_SCOPES), Result.fail("users.admin"))
    assert.deepStrictEqual(parseScope("   ", OAUTH_SCOPES), Result.fail(""))
    assert.deepStrictEqual(parseScope("USERS.READ", OAUTH_SCOPES), Result.fail("USERS.READ"))
  })

  it("the decision list adds the extra scopes to the OAuth scheme's, which excludes them", () => {
    assert.strictEqual(OAUTH_SCOPES.length, 29)
    assert.strictEqual(DECISION_SCOPES.length, 37)
    assert.isTrue(Result.isSuccess(parseScope("apis.all compliance.read", DECISION_SCOPES)))
    assert.deepStrictEqual(parseScope("apis.all", OAUTH_SCOPES), Result.fail("apis.all"))
  })

  it("formats and compares scope sets", () => {
    assert.strictEqual(formatScope(["a.read", "b.write"]), "a.read b.write")
    assert.isTrue(isSubset(["users.read"], ["users.read", "teams.read"]))
    assert.isFalse(isSubset(["users.read", "users.write"], ["users.read"]))
  })
})
