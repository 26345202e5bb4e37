import type { Approval } from "@svc/sdk"
import { useState } from "preact/hooks"
import { formatDateTime, formatRelative } from "../format/time.ts"
import { useWorkspace } from "../session/context.ts"
import { useKeyNames } from "../session/keys.ts"
import { ActionButton, ErrorNote, Loading, ModeBadge, Money, PageHeader, StatusBadge } from "../ui/components.tsx"
import { useLoad, useNow } from "../ui/hooks.ts"
import { PENDING_CAP, pendingByExpiry } from "./pending.ts"
import { describeReason } from "./reasons.ts"
import { kindLabel, subjectOf } from "./subject.ts"

/** How often the inbox asks for new approvals while the tab is visible. */
const POLL_MS = 5_000

const ApprovalCard = ({
  approval,
  keyNames,
  now,
  onDecided
}: {
  readonly approval: Approval
  readonly keyNames: ReadonlyMap<string, string>
  readonly now: number
  readonly onDecided: () => Promise<void>
}) => {
  const { client, canManage } = useWorkspace()
  const [note, setNote] = useState("")
  const [refusal, setRefusal] = useState<unknown>(null)
  const subject = subjectOf(approval)
  const agent = subject.keyId === null ? "—" : (keyNames.get(subject.keyId) ?? `key ${subject.keyId.slice(0, 8)}`)
  const title = `${kindLabel(approval)} to ${subject.counterparty}`
  // A refusal (spending frozen, decided meanwhile) shows below the buttons, inside the card, whatever its length.
  const decide = (verdict: "approve" | "deny") => async () => {
    const payload = note.trim() === "" ? {} : { note: note.trim() }
    setRefusal(null)
    try {
      await client.treasury[verdict]({ params: { id: approval.id }, payload })
    } catch (error) {
      return setRefusal(error)
    }
    await onDecided()
  }
  const pending = approval.status === "pending"
  const noteId = `note-${approval.id}`
  return (
    <article class="card approval" aria-label={title}>
      <header class="approval-head">
        <h3>
          {title} <ModeBadge mode={subject.mode} />
        </h3>
        <span class="amount">
          {subject.amount === null || subject.currency === null ? null : (
            <Money amount={subject.amount} currency={subject.currency} />
          )}
        </span>
      </header>
      <dl class="facts">
        <div>
          <dt>Agent</dt>
          <dd>{agent}</dd>
        </div>
        <div>
          <dt>Purpose</dt>
          <dd>{subject.purpose === "" ? "—" : subject.purpose}</dd>
        </div>
        <div>
          <dt>{pending ? "Time left" : "Status"}</dt>
          <dd>
            {pending ? (
              <time dateTime={approval.expiresAt} title={formatDateTime(approval.expiresAt)}>
                expires {formatRelative(approval.expiresAt, now)}
              </time>
            ) : (
              <StatusBadge status={approval.status} />
            )}
          </dd>
        </div>
        {pending || approval.decidedAt === null ? null : (
          <div>
            <dt>Decided</dt>
            <dd>
              {approval.decidedBy === null ? "by the system" : `by ${approval.decidedByName ?? "a former member"}`},{" "}
              <time dateTime={approval.decidedAt}>{formatDateTime(approval.decidedAt)}</time>
            </dd>
          </div>
        )}
        {approval.approvals.required > 1 ? (
          <div>
            <dt>Approvals</dt>
            <dd>
              {approval.approvals.received} of {approval.approvals.required}
            </dd>
          </div>
        ) : null}
      </dl>
      {subject.reasons.length === 0 ? null : (
        <div class="reasons">
          <h4>Why it needs a person</h4>
          <ul>
            {subject.reasons.map((reason) => (
              <li key={reason.code}>{describeReason(reason, subject.currency)}</li>
            ))}
          </ul>
        </div>
      )}
      {!pending && approval.note !== null ? <p class="muted">Note: {approval.note}</p> : null}
      {pending && canManage ? (
        <div class="decide">
          <label for={noteId}>Note (optional)</label>
          <input
            id={noteId}
            type="text"
            maxLength={1000}
            value={note}
            onInput={(event) => setNote(event.currentTarget.value)}
          />
          <ActionButton kind="primary" action={decide("approve")}>
            Approve
          </ActionButton>
          <ActionButton kind="danger" action={decide("deny")}>
            Deny
          </ActionButton>
        </div>
      ) : null}
      {refusal === null ? null : (
        <div class="refusal">
          <ErrorNote error={refusal} />
        </div>
      )}
      {pending && !canManage ? <p class="muted">Only owners and admins can decide approvals.</p> : null}
    </article>
  )
}

/** The landing page: approvals waiting for a person, the ones expiring soonest first, and the latest decisions. */
export const Inbox = () => {
  const { client } = useWorkspace()
  const now = useNow(15_000)
  const keys = useKeyNames()
  const keyNames = new Map(keys.map((key) => [key.id, key.name]))
  const pending = useLoad(() => pendingByExpiry(client.treasury.approvals), [client], { everyMs: POLL_MS })
  const recent = useLoad(
    () =>
      client.treasury
        .approvals({ query: { limit: 20 } })
        .then((page) => page.data.filter((a) => a.status !== "pending")),
    [client],
    { everyMs: POLL_MS * 6 }
  )
  const refresh = async () => {
    await Promise.all([pending.reload(), recent.reload()])
  }
  const cards = (label: string, approvals: ReadonlyArray<Approval>) => (
    <ul class="cards" aria-label={label}>
      {approvals.map((approval) => (
        <li key={approval.id}>
          <ApprovalCard approval={approval} keyNames={keyNames} now={now} onDecided={refresh} />
        </li>
      ))}
    </ul>
  )
  return (
    <>
      <PageHeader title="Approvals">
        What your agents asked for that needs a person: approve or deny each, with a note if you like. New requests
        appear here by themselves.
      </PageHeader>
      <section aria-labelledby="pending-heading">
        <h2 id="pending-heading">Waiting for a decision</h2>
        <p class="visually-hidden" aria-live="polite">
          {pending.loaded.state === "ready" ? `${pending.loaded.value.approvals.length} waiting for a decision` : ""}
        </p>
        {pending.loaded.state === "ready" && pending.loaded.value.more ? (
          <p class="muted" role="status">
            More than {PENDING_CAP.toLocaleString()} approvals are waiting: the {PENDING_CAP.toLocaleString()} newest
            are shown, the soonest to expire first.
          </p>
        ) : null}
        <Loading loaded={pending.loaded} label="pending approvals">
          {({ approvals }) =>
            approvals.length === 0 ? (
              <div class="empty" role="status">
                <p>
                  <strong>Nothing is waiting for you.</strong>
                </p>
                <p class="muted">
                  When an agent's spend request, transfer or checkout goes over its key's approval threshold or needs a
                  review (a new merchant, for example), it shows up here with the amount, the merchant, the purpose and
                  the policy's reasons, for an owner or admin to approve or deny before it expires.
                </p>
              </div>
            ) : (
              cards("Pending approvals", approvals)
            )
          }
        </Loading>
      </section>
      <section aria-labelledby="decided-heading">
        <h2 id="decided-heading">Recently decided</h2>
        {recent.loaded.state === "failed" ? <ErrorNote error={recent.loaded.error} /> : null}
        {recent.loaded.state === "ready" ? (
          recent.loaded.value.length === 0 ? (
            <p class="muted">No decisions yet.</p>
          ) : (
            cards("Decided approvals", recent.loaded.value)
          )
        ) : null}
      </section>
    </>
  )
}
