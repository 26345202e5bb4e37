import type { ActivityItem } from "@svc/sdk"
import { formatDateTime } from "../format/time.ts"
import { TransactionEntries } from "../ledger/TransactionEntries.tsx"
import { useWorkspace } from "../session/context.ts"
import { Link, Loading, Money, PageHeader, StatusBadge } from "../ui/components.tsx"
import { useLoad } from "../ui/hooks.ts"
import { kindWord } from "./filters.ts"

/** One request: what it was, each step of its decision, and the ledger transactions it caused. */
export const ActivityDetail = ({ kind, id }: { readonly kind: ActivityItem["kind"]; readonly id: string }) => {
  const { client } = useWorkspace()
  const detail = useLoad(() => client.treasury.activityDetail({ params: { kind, id } }), [client, kind, id])
  return (
    <>
      <p>
        <Link to="/activity">← All activity</Link>
      </p>
      <Loading loaded={detail.loaded} label="the request">
        {({ item, trail, ledgerTransactions }) => (
          <>
            <PageHeader title={`${kindWord(item.kind)}${item.counterparty === null ? "" : ` to ${item.counterparty}`}`}>
              {item.purpose ?? ""}
            </PageHeader>
            <dl class="facts">
              <div>
                <dt>Amount</dt>
                <dd>
                  <Money amount={item.amount} currency={item.currency} />
                </dd>
              </div>
              <div>
                <dt>Status</dt>
                <dd>
                  <StatusBadge status={item.status} />
                </dd>
              </div>
              <div>
                <dt>Key</dt>
                <dd>{item.keyName ?? "—"}</dd>
              </div>
              <div>
                <dt>Created</dt>
                <dd>{formatDateTime(item.createdAt)}</dd>
              </div>
            </dl>
            <section aria-labelledby="trail-heading">
              <h2 id="trail-heading">Decision trail</h2>
              <ol class="trail" aria-label="Decision trail">
                {trail.map((step) => (
                  <li key={`${step.at}-${step.action}`}>
                    <time dateTime={step.at}>{formatDateTime(step.at)}</time>{" "}
                    <strong>{step.action.replaceAll("_", " ")}</strong>
                    {step.actor === null ? null : <> by {step.actor}</>}
                    {step.detail === null ? null : <span class="muted"> — {step.detail}</span>}
                  </li>
                ))}
              </ol>
            </section>
            <section aria-labelledby="movements-heading">
              <h2 id="movements-heading">Ledger movements</h2>
              {ledgerTransactions.length === 0 ? (
                <p class="muted">No money moved.</p>
              ) : (
                <TransactionEntries transactions={ledgerTransactions} />
              )}
            </section>
          </>
        )}
      </Loading>
    </>
  )
}
