const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]"])

/** Whether the service's cookies are `Secure`: always, unless the public base URL is on the loopback host (local use). */
export const cookiesAreSecure = (publicBaseUrl: string): boolean => !LOOPBACK_HOSTS.has(new URL(publicBaseUrl).hostname)

/** A cookie's attributes: HttpOnly, SameSite=Lax, `secure`, sent under `path`, living `maxAgeSeconds` (0 clears it). */
export const cookieOptions = (secure: boolean, path: string, maxAgeSeconds: number) =>
  ({ httpOnly: true, secure, sameSite: "lax", path, maxAge: `${maxAgeSeconds} seconds` }) as const
