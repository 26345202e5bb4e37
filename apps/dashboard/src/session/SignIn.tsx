import { useState } from "preact/hooks"
import { ErrorNote } from "../ui/components.tsx"
import { type DashboardSession, requestSignInLink, type SignInLinkRequest, startSession } from "./api.ts"

/** The one-time token of a mailed link (`#token=…`), read once and then taken out of the address bar. */
const takeLinkToken = (): string | null => {
  const token = new URLSearchParams(location.hash.slice(1)).get("token")
  if (token !== null) history.replaceState(null, "", location.pathname + location.search)
  return token
}

/**
 * Signing in with an e-mailed one-time link: the address form, or, opened from the link, one button that spends the
 * token (so a mail scanner that follows links does not use it up).
 */
export const SignIn = ({ onSignedIn }: { readonly onSignedIn: (session: DashboardSession) => void }) => {
  const [token] = useState(takeLinkToken)
  const [email, setEmail] = useState("")
  const [sent, setSent] = useState<SignInLinkRequest | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  const run = (work: () => Promise<void>) => {
    setBusy(true)
    setError(null)
    work().then(
      () => setBusy(false),
      (failure: unknown) => {
        setBusy(false)
        setError(failure)
      }
    )
  }
  return (
    <main class="sign-in" id="main">
      <h1>Sign in to the dashboard</h1>
      {token !== null ? (
        <>
          <p>You opened a sign-in link. Press the button to start your session on this device.</p>
          <button
            type="button"
            class="primary"
            disabled={busy}
            onClick={() => run(() => startSession(token).then(onSignedIn))}
          >
            Sign in
          </button>
          <p class="muted">
            A link works once and only for a short while. If it has expired,{" "}
            <a href="/dashboard/sign-in">ask for a new one</a>.
          </p>
        </>
      ) : sent !== null ? (
        <div role="status">
          {sent.localDelivery === null ? (
            <p>
              <strong>Check your inbox.</strong> If {sent.email} may sign in or sign up here, a link is on its way. It
              works once.
            </p>
          ) : (
            <p>
              <strong>In local mode the link is written to {sent.localDelivery}</strong>, not mailed: the service has no
              mail provider configured. If {sent.email} may sign in or sign up here, its link is there. It works once.
            </p>
          )}
          <button type="button" onClick={() => setSent(null)}>
            Use another address
          </button>
        </div>
      ) : (
        <form
          onSubmit={(event) => {
            event.preventDefault()
            run(() => requestSignInLink(email.trim()).then(setSent))
          }}
        >
          <p>We e-mail you a one-time link; no password needed. First time here? The same link signs you up.</p>
          <label for="email">Work e-mail</label>
          <input
            id="email"
            type="email"
            autocomplete="email"
            required
            value={email}
            onInput={(event) => setEmail(event.currentTarget.value)}
          />
          <button type="submit" class="primary" disabled={busy}>
            Email me a sign-in link
          </button>
        </form>
      )}
      {error === null ? null : <ErrorNote error={error} />}
    </main>
  )
}
