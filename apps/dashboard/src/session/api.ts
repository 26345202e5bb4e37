import { ApiError, createClient, type PromiseClient } from "@svc/sdk"

/** The signed-in person's dashboard session as the API answers it. */
export type DashboardSession = Awaited<ReturnType<PromiseClient["dashboardSession"]["current"]>>

/**
 * The SDK before there is a session: the sign-in routes are public and `GET /auth/session` reads the cookie, so it
 * sends neither a bearer token nor a CSRF token.
 */
const beforeSignIn = (): PromiseClient => createClient({ baseUrl: location.origin })

/** The answer to a sign-in link request: the address, and where the link is written in local mode (else null). */
export type SignInLinkRequest = Awaited<ReturnType<PromiseClient["dashboardSignIn"]["requestLink"]>>

/** Mails a one-time sign-in link to the address (the API answers the same for unknown addresses). */
export const requestSignInLink = (email: string): Promise<SignInLinkRequest> =>
  beforeSignIn().dashboardSignIn.requestLink({ payload: { email } })

/** Trades the link's one-time token for a session cookie. */
export const startSession = (token: string) => beforeSignIn().dashboardSignIn.signIn({ payload: { token } })

/** The session of the cookie, or null when there is none (or it expired). */
export const currentSession = async (): Promise<DashboardSession | null> => {
  try {
    return await beforeSignIn().dashboardSession.current()
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null
    throw error
  }
}

/** The SDK over the session cookie: no bearer token, every request with the CSRF token. */
export const clientFor = (csrfToken: string): PromiseClient => createClient({ baseUrl: location.origin, csrfToken })

/** Signs out: the session ends on the server and its cookie is cleared. */
export const endSession = (csrfToken: string) => clientFor(csrfToken).dashboardSession.signOut()
