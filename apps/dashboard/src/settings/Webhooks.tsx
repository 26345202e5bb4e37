import { useState } from "preact/hooks"
import { formatDateTime } from "../format/time.ts"
import { useWorkspace } from "../session/context.ts"
import { ActionButton, ConfirmButton, Field, Loading, SecretOnce, StatusBadge } from "../ui/components.tsx"
import { useLoad } from "../ui/hooks.ts"

/** The delivery log of one endpoint, newest first, each failed or finished one redeliverable. */
const Deliveries = ({ endpointId }: { readonly endpointId: string }) => {
  const { client, canManage } = useWorkspace()
  const deliveries = useLoad(
    () => client.webhookEndpoints.deliveries({ params: { id: endpointId }, query: { limit: 25 } }).then((p) => p.data),
    [client, endpointId]
  )
  return (
    <Loading loaded={deliveries.loaded} label="deliveries">
      {(list) =>
        list.length === 0 ? (
          <p class="muted">No deliveries yet.</p>
        ) : (
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">Deliveries</caption>
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Last answer</th>
                  <th scope="col">Created</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((delivery) => (
                  <tr key={delivery.id}>
                    <td>{delivery.eventType}</td>
                    <td>
                      <StatusBadge status={delivery.status} />
                    </td>
                    <td>{delivery.attempts}</td>
                    <td>{delivery.lastStatusCode ?? delivery.lastError ?? "—"}</td>
                    <td>{formatDateTime(delivery.createdAt)}</td>
                    <td>
                      {canManage ? (
                        <ActionButton
                          label={`Redeliver ${delivery.eventType}`}
                          action={async () => {
                            await client.webhookEndpoints.redeliver({
                              params: { id: endpointId, deliveryId: delivery.id }
                            })
                            await deliveries.reload()
                          }}
                        >
                          Redeliver
                        </ActionButton>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      }
    </Loading>
  )
}

/** Webhook endpoints: create (secret shown once), rotate the secret, disable, and each one's delivery log. */
export const Webhooks = () => {
  const { client, canManage } = useWorkspace()
  const endpoints = useLoad(() => client.webhookEndpoints.list({ query: { limit: 100 } }).then((p) => p.data), [client])
  const [url, setUrl] = useState("")
  const [types, setTypes] = useState("*")
  const [secret, setSecret] = useState<{ readonly url: string; readonly secret: string } | null>(null)
  const [open, setOpen] = useState<string | null>(null)
  return (
    <section aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading">Webhook endpoints</h2>
      <p class="muted">Where the service POSTs signed events (approvals decided, spend approved, transfers, …).</p>
      {secret === null ? null : <SecretOnce secret={secret.secret} what={`signing secret of ${secret.url}`} />}
      {canManage ? (
        <form class="inline-form" aria-label="New webhook endpoint" onSubmit={(e) => e.preventDefault()}>
          <Field label="Endpoint URL" help="An https URL of your system.">
            {(props) => <input {...props} type="url" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />}
          </Field>
          <Field label="Event types" help='Comma-separated, e.g. "spend_request.approved"; * for every event.'>
            {(props) => <input {...props} value={types} onInput={(e) => setTypes(e.currentTarget.value)} />}
          </Field>
          <ActionButton
            kind="primary"
            action={async () => {
              const eventTypes = types
                .split(",")
                .map((t) => t.trim())
                .filter((t) => t !== "")
              const created = await client.webhookEndpoints.create({ payload: { url: url.trim(), eventTypes } })
              setSecret({ url: created.url, secret: created.secret })
              setUrl("")
              await endpoints.reload()
            }}
          >
            Add endpoint
          </ActionButton>
        </form>
      ) : null}
      <Loading loaded={endpoints.loaded} label="webhook endpoints">
        {(list) =>
          list.length === 0 ? (
            <p class="muted">No webhook endpoints.</p>
          ) : (
            <ul class="cards" aria-label="Webhook endpoints">
              {list.map((endpoint) => (
                <li key={endpoint.id}>
                  <article class="card" aria-label={`Webhook endpoint ${endpoint.url}`}>
                    <h3>{endpoint.url}</h3>
                    <p class="muted">
                      {endpoint.eventTypes.join(", ")} ·{" "}
                      {endpoint.enabled
                        ? "enabled"
                        : `disabled${endpoint.disabledReason === null ? "" : ` (${endpoint.disabledReason})`}`}
                    </p>
                    <div class="row">
                      <button type="button" onClick={() => setOpen(open === endpoint.id ? null : endpoint.id)}>
                        {open === endpoint.id ? "Hide deliveries" : "Deliveries"}
                      </button>
                      {canManage && endpoint.enabled ? (
                        <>
                          <ActionButton
                            action={async () => {
                              const rotated = await client.webhookEndpoints.rotateSecret({
                                params: { id: endpoint.id }
                              })
                              setSecret({ url: rotated.url, secret: rotated.secret })
                            }}
                          >
                            Rotate secret
                          </ActionButton>
                          <ConfirmButton
                            question={`Disable ${endpoint.url}? Events stop being sent to it.`}
                            confirmLabel="Yes, disable"
                            action={async () => {
                              await client.webhookEndpoints.disable({ params: { id: endpoint.id } })
                              await endpoints.reload()
                            }}
                          >
                            Disable
                          </ConfirmButton>
                        </>
                      ) : null}
                    </div>
                    {open === endpoint.id ? <Deliveries endpointId={endpoint.id} /> : null}
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
