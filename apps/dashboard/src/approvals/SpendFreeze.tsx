import type { SpendFreeze } from "@svc/sdk"
import { createContext } from "preact"
import { useContext, useState } from "preact/hooks"
import { formatDateTime } from "../format/time.ts"
import { useWorkspace } from "../session/context.ts"
import { useMemberEmails } from "../session/members.ts"
import { ActionButton, ConfirmButton, Field } from "../ui/components.tsx"
import { useLoad } from "../ui/hooks.ts"

/** How often the shell asks whether spending is frozen (someone else may freeze it). */
const POLL_MS = 15_000

/** The team's freeze while its spending is frozen (null when it is not), and a way to ask again. */
interface Freezes {
  readonly teamFreeze: SpendFreeze | null
  readonly reload: () => Promise<void>
}

const FreezesContext = createContext<Freezes>({ teamFreeze: null, reload: () => Promise.resolve() })

/** Loads the team's active freezes for the shell (polled), to provide to every page with `FreezesContext`. */
export const useFreezes = (): Freezes => {
  const { client } = useWorkspace()
  const { loaded, reload } = useLoad(
    () =>
      client.governance
        .listSpendFreezes({ query: { limit: 100 } })
        .then((page) => page.data.find((freeze) => freeze.scope === "team") ?? null),
    [client],
    { everyMs: POLL_MS }
  )
  return { teamFreeze: loaded.state === "ready" ? loaded.value : null, reload }
}

export const FreezesProvider = FreezesContext.Provider

/** Who froze or lifted, by e-mail. */
const useActor = () => {
  const emails = useMemberEmails()
  return (userId: string) => emails.get(userId) ?? "a former member"
}

/** On every page while the team's spending is frozen: since when, by whom, why, and (owners, admins) the unfreeze. */
export const FrozenBanner = () => {
  const { client, canManage } = useWorkspace()
  const { teamFreeze, reload } = useContext(FreezesContext)
  const actor = useActor()
  if (teamFreeze === null) return null
  return (
    <section class="frozen" role="status" aria-label="Spending is frozen">
      <p>
        <strong>All spending is frozen.</strong> Since {formatDateTime(teamFreeze.frozenAt)}, by{" "}
        {actor(teamFreeze.frozenBy)}: {teamFreeze.reason}. Agents' new spend requests, transfers and checkouts are
        denied, and approvals cannot be approved until spending is unfrozen.
      </p>
      {canManage ? (
        <ActionButton kind="primary" action={() => client.governance.liftSpendFreeze({ query: {} }).then(reload)}>
          Unfreeze spending
        </ActionButton>
      ) : null}
    </section>
  )
}

/** The kill switch in Settings: owners and admins freeze all of the team's new spending at once, with a reason. */
export const KillSwitch = () => {
  const { client } = useWorkspace()
  const { teamFreeze, reload } = useContext(FreezesContext)
  const [reason, setReason] = useState("")
  return (
    <section aria-labelledby="kill-switch-heading">
      <h2 id="kill-switch-heading">Kill switch</h2>
      {teamFreeze === null ? (
        <form class="inline-form" aria-label="Freeze spending" onSubmit={(event) => event.preventDefault()}>
          <Field label="Why freeze" help="Recorded in the audit log and sent with the spend_freeze.created event.">
            {(props) => (
              <input
                {...props}
                type="text"
                maxLength={500}
                value={reason}
                onInput={(event) => setReason(event.currentTarget.value)}
              />
            )}
          </Field>
          <ConfirmButton
            question="Freeze all spending? Every agent's new request is denied until you unfreeze."
            confirmLabel="Yes, freeze"
            action={async () => {
              await client.governance.freezeSpending({ payload: { reason: reason.trim() } })
              setReason("")
              await reload()
            }}
          >
            Freeze all spending
          </ConfirmButton>
        </form>
      ) : (
        <p class="muted">Spending is frozen: unfreeze it from the banner at the top of the page.</p>
      )}
    </section>
  )
}
