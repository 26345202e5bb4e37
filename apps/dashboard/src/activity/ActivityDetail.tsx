import type { ActivityItem, ActivityDetail as Detail } from "@svc/sdk"
import { describeReason } from "../approvals/reasons.ts"
import { formatDateTime } from "../format/time.ts"
import { loadAccounts, namesOf } from "../ledger/accounts.ts"
import { TransactionEntries } from "../ledger/TransactionEntries.tsx"
import { useWorkspace } from "../session/context.ts"
import { Link, Loading, ModeBadge, Money, PageHeader, StatusBadge } from "../ui/components.tsx"
import { useLoad } from "../ui/hooks.ts"
import { kindWord } from "./filters.ts"

/** What a step of the trail adds: the policy's reasons in words and money, an amount, or its note. */
const StepDetail = ({ step, currency }: { readonly step: Detail["trail"][number]; readonly currency: string }) =>
  step.reasons !== undefined ? (
    <span class="muted"> — {step.reasons.map((reason) => describeReason(reason, currency)).join("; ")}</span>
  ) : step.amount !== undefined ? (
    <span class="muted">
      {" "}
      — <Money amount={step.amount} currency={currency} />
    </span>
  ) : step.detail === null ? null : (
    <span class="muted"> — {step.detail.replaceAll("_", " ")}</span>
  )

/** One request: what it was, each step of its decision, and the ledger transactions it caused. */
export const ActivityDetail = ({ kind, id }: { readonly kind: ActivityItem["kind"]; readonly id: string }) => {
  const { client } = useWorkspace()
  const detail = useLoad(
    () =>
      Promise.all([client.treasury.activityDetail({ params: { kind, id } }), loadAccounts(client)]).then(
        ([answer, accounts]) => ({ ...answer, accountNames: namesOf(accounts) })
      ),
    [client, kind, id]
  )
  return (
    <>
      <p>
        <Link to="/activity">← All activity</Link>
      </p>
      <Loading loaded={detail.loaded} label="the request">
        {({ item, trail, ledgerTransactions, accountNames }) => (
          <>
            <PageHeader title={`${kindWord(item.kind)}${item.counterparty === null ? "" : ` to ${item.counterparty}`}`}>
              {item.purpose ?? ""}
            </PageHeader>
            <dl class="facts">
              <div>
                <dt>Mode</dt>
                <dd>{item.mode === "test" ? <ModeBadge mode={item.mode} /> : "Live"}</dd>
              </div>
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
                    <StepDetail step={step} currency={item.currency} />
                  </li>
                ))}
              </ol>
            </section>
            <section aria-labelledby="movements-heading">
              <h2 id="movements-heading">Ledger movements</h2>
              {ledgerTransactions.length === 0 ? (
                <p class="muted">No money moved.</p>
              ) : (
                <TransactionEntries transactions={ledgerTransactions} accountNames={accountNames} />
              )}
            </section>
          </>
        )}
      </Loading>
    </>
  )
}
