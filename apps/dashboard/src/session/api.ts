import { ApiError, createClient, type PromiseClient } from "@svc/sdk"

/** The signed-in person's dashboard session as the API answers it. */
export interface DashboardSession {
  readonly object: "dashboard_session"
  readonly user: { readonly id: string; readonly email: string; readonly fullName: string | null }
  readonly expiresAt: string
  readonly csrfToken: string
}

/** A failed answer as the SDK's ApiError: the service's `{error: {code, message}}` body, or the status alone. */
const failure = async (response: Response): Promise<ApiError> => {
  const body = (await response.json().catch(() => null)) as {
    readonly error?: { readonly code?: string; readonly message?: string } | string
    readonly message?: string
  } | null
  const error = body?.error
  if (typeof error === "object" && error !== null) {
    return new ApiError(response.status, error.code ?? "error", error.message ?? response.statusText)
  }
  return new ApiError(
    response.status,
    typeof error === "string" ? error : "error",
    body?.message ?? response.statusText
  )
}

/** A JSON call to the API with the session cookie; an unsafe method carries the CSRF token. For the sign-in routes. */
const callJson = async <A>(
  method: "GET" | "POST" | "DELETE",
  path: string,
  options: { readonly body?: unknown; readonly csrfToken?: string } = {}
): Promise<A> => {
  const headers: Record<string, string> = { accept: "application/json" }
  if (options.body !== undefined) headers["content-type"] = "application/json"
  if (method !== "GET" && options.csrfToken !== undefined) headers["x-csrf-token"] = options.csrfToken
  const response = await fetch(`${location.origin}${path}`, {
    method,
    headers,
    credentials: "same-origin",
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
  })
  if (!response.ok) throw await failure(response)
  return (response.status === 204 ? undefined : await response.json()) as A
}

/** Mails a one-time sign-in link to the address (the API answers the same for unknown addresses). */
export const requestSignInLink = (email: string) =>
  callJson<{ readonly email: string }>("POST", "/auth/sign-in-links", { body: { email } })

/** Trades the link's one-time token for a session cookie. */
export const startSession = (token: string) => callJson<DashboardSession>("POST", "/auth/sessions", { body: { token } })

/** The session of the cookie, or null when there is none (or it expired). */
export const currentSession = async (): Promise<DashboardSession | null> => {
  try {
    return await callJson<DashboardSession>("GET", "/auth/session")
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null
    throw error
  }
}

/** Signs out: the session ends on the server and its cookie is cleared. */
export const endSession = (csrfToken: string) => callJson<void>("DELETE", "/auth/session", { csrfToken })

/** The SDK over the session cookie: no bearer token, every unsafe request with the CSRF token. */
export const clientFor = (csrfToken: string): PromiseClient => createClient({ baseUrl: location.origin, csrfToken })
