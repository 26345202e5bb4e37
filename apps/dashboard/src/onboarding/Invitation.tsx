import { useState } from "preact/hooks"
import type { Workspace } from "../session/context.ts"
import { ActionButton } from "../ui/components.tsx"
import { navigate } from "../ui/router.ts"

/** Where an invitation opened from its mail waits until its person is signed in (across tabs, as sign-in opens one). */
const STORAGE_KEY = "svc.invitation"

/**
 * Keeps the invitation token of the address bar (`/invitations#invitation=…`, from the invitation mail) for after
 * sign-in, and takes it out of the address bar.
 */
export const rememberInvitation = () => {
  const token = new URLSearchParams(location.hash.slice(1)).get("invitation")
  if (token === null || token === "") return
  localStorage.setItem(STORAGE_KEY, token)
  navigate("/", { replace: true })
}

/** The invitation waiting for the signed-in person: accept it (joining its team) or put it aside. */
export const PendingInvitation = ({
  workspace,
  onAccepted
}: {
  readonly workspace: Workspace
  readonly onAccepted: () => Promise<void>
}) => {
  const [token, setToken] = useState(() => localStorage.getItem(STORAGE_KEY))
  if (token === null) return null
  const forget = () => {
    localStorage.removeItem(STORAGE_KEY)
    setToken(null)
  }
  return (
    <section class="notice" aria-labelledby="invitation-heading">
      <h2 id="invitation-heading">You are invited to a team</h2>
      <p>
        Accept to join it as {workspace.session.user.email}, with the role you were invited with; it becomes your
        current team.
      </p>
      <ActionButton
        kind="primary"
        action={async () => {
          await workspace.client.invites.accept({ payload: { token } })
          forget()
          await onAccepted()
          navigate("/")
        }}
      >
        Accept invitation
      </ActionButton>{" "}
      <button type="button" onClick={forget}>
        Not now
      </button>
    </section>
  )
}
