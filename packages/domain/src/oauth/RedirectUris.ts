import { Result } from "effect"

const LOOPBACK_HOSTS = ["localhost", "127.0.0.1"]

const FORBIDDEN_SCHEMES = [
  "javascript:",
  "data:",
  "file:",
  "vbscript:",
  "about:",
  "blob:",
  "filesystem:",
  "ftp:",
  "ws:",
  "wss:",
  "mailto:",
  "tel:",
  "sms:",
  "view-source:"
]

/**
 * Checks a redirect URI a client registers (RFC 6749 3.1.2, RFC 8252, RFC 9700): https anywhere, http only on
 * localhost or 127.0.0.1 (any port), or a private-use scheme; never a fragment or embedded credentials.
 * Fails with the reason.
 */
export const checkRedirectUri = (raw: string): Result.Result<string, string> => {
  if (raw.length > 2000) return Result.fail("must be at most 2000 characters")
  if (/\s/u.test(raw)) return Result.fail("must not contain whitespace")
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return Result.fail("must be an absolute URI")
  }
  if (url.hash !== "" || raw.includes("#")) return Result.fail("must not contain a fragment")
  if (url.username !== "" || url.password !== "") return Result.fail("must not contain credentials")
  if (url.protocol === "https:") {
    return url.hostname === "" ? Result.fail("must name a host") : Result.succeed(raw)
  }
  if (url.protocol === "http:") {
    return LOOPBACK_HOSTS.includes(url.hostname)
      ? Result.succeed(raw)
      : Result.fail("http is allowed only on localhost and 127.0.0.1; use https")
  }
  if (FORBIDDEN_SCHEMES.includes(url.protocol)) return Result.fail(`the scheme ${url.protocol} is not allowed`)
  return /^[a-z][a-z0-9+.-]*:$/u.test(url.protocol)
    ? Result.succeed(raw)
    : Result.fail("must use https, http on localhost, or a private-use scheme")
}
