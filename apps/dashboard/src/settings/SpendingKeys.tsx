import { useState } from "preact/hooks"
import { formatDateTime } from "../format/time.ts"
import { useWorkspace } from "../session/context.ts"
import { ConfirmButton, Field, Loading, SecretOnce } from "../ui/components.tsx"
import { useLoad } from "../ui/hooks.ts"
import { PolicyForm } from "./PolicyForm.tsx"

type Mode = "live" | "test"

/** The team's spending keys: create one (its secret shown once), edit a key's policy, revoke a key. */
export const SpendingKeys = () => {
  const { client, canManage, team } = useWorkspace()
  const currency = team?.baseCurrency ?? "USD"
  const keys = useLoad(() => client.agentKeys.listSpendingKeys({ query: { limit: 100 } }).then((p) => p.data), [client])
  const [creating, setCreating] = useState(false)
  const [name, setName] = useState("")
  const [mode, setMode] = useState<Mode>("test")
  const [created, setCreated] = useState<{ readonly name: string; readonly secret: string } | null>(null)
  const [editing, setEditing] = useState<string | null>(null)
  return (
    <section aria-labelledby="keys-heading">
      <h2 id="keys-heading">Spending keys</h2>
      <p class="muted">
        An agent spends with its own key, within the key's policy. Requests over the approval threshold come to the
        approvals inbox.
      </p>
      {created === null ? null : <SecretOnce secret={created.secret} what={`spending key "${created.name}"`} />}
      {canManage && !creating ? (
        <button type="button" class="primary" onClick={() => setCreating(true)}>
          New spending key
        </button>
      ) : null}
      {creating ? (
        <section class="card" aria-label="New spending key">
          <h3>New spending key</h3>
          <PolicyForm
            initial={{}}
            currency={currency}
            submitLabel="Create key"
            onSubmit={async (policy) => {
              const key = await client.agentKeys.createSpendingKey({
                payload: { name: name.trim(), mode, policy }
              })
              setCreated({ name: key.name, secret: key.secret })
              setCreating(false)
              setName("")
              await keys.reload()
            }}
          >
            <Field label="Key name" help="Who or what uses the key, e.g. the agent's name. Shown in the inbox.">
              {(props) => (
                <input
                  {...props}
                  required
                  maxLength={100}
                  value={name}
                  onInput={(e) => setName(e.currentTarget.value)}
                />
              )}
            </Field>
            <fieldset>
              <legend>Mode</legend>
              <label>
                <input type="radio" name="key-mode" checked={mode === "test"} onChange={() => setMode("test")} /> Test
                (simulated money)
              </label>
              <label>
                <input type="radio" name="key-mode" checked={mode === "live"} onChange={() => setMode("live")} /> Live
              </label>
            </fieldset>
          </PolicyForm>
          <button type="button" onClick={() => setCreating(false)}>
            Cancel
          </button>
        </section>
      ) : null}
      <Loading loaded={keys.loaded} label="spending keys">
        {(list) =>
          list.length === 0 ? (
            <p class="muted">No spending keys yet. Create one for each agent that should spend.</p>
          ) : (
            <ul class="cards" aria-label="Spending keys">
              {list.map((key) => (
                <li key={key.id}>
                  <article class="card" aria-label={`Spending key ${key.name}`}>
                    <h3>
                      {key.name} <span class="muted">({key.mode})</span>
                    </h3>
                    <p class="muted">
                      {key.prefix} · created {formatDateTime(key.createdAt)} · policy version {key.policyVersion}
                      {key.revokedAt === null ? "" : ` · revoked ${formatDateTime(key.revokedAt)}`}
                    </p>
                    {canManage && key.revokedAt === null ? (
                      <div class="row">
                        <button type="button" onClick={() => setEditing(editing === key.id ? null : key.id)}>
                          {editing === key.id ? "Close policy" : "Edit policy"}
                        </button>
                        <ConfirmButton
                          question={`Revoke ${key.name}? Its agent's next request will be refused.`}
                          confirmLabel="Yes, revoke"
                          action={async () => {
                            await client.agentKeys.revokeSpendingKey({ params: { id: key.id } })
                            await keys.reload()
                          }}
                        >
                          Revoke
                        </ConfirmButton>
                      </div>
                    ) : null}
                    {editing === key.id ? (
                      <PolicyForm
                        initial={key.policy}
                        currency={currency}
                        submitLabel="Save policy"
                        onSubmit={async (policy) => {
                          await client.agentKeys.updateSpendingKey({ params: { id: key.id }, payload: { policy } })
                          setEditing(null)
                          await keys.reload()
                        }}
                      />
                    ) : null}
                  </article>
                </li>
              ))}
            </ul>
          )
        }
      </Loading>
    </section>
  )
}
