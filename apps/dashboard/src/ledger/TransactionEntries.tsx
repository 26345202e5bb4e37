import type { ActivityDetail } from "@svc/sdk"
import { formatDateTime } from "../format/time.ts"
import { Money } from "../ui/components.tsx"

type LedgerTransaction = ActivityDetail["ledgerTransactions"][number]

/** Ledger transactions with their entries: which account, how much (credit positive), posted or pending. */
export const TransactionEntries = ({
  transactions,
  accountNames = new Map()
}: {
  readonly transactions: ReadonlyArray<LedgerTransaction>
  readonly accountNames?: ReadonlyMap<string, string>
}) => (
  <ul class="transactions" aria-label="Ledger transactions">
    {transactions.map((tx) => (
      <li key={tx.id} class="card">
        <p>
          <strong>{tx.code.replaceAll("_", " ")}</strong> <span class="muted">({tx.kind})</span> ·{" "}
          <time dateTime={tx.createdAt}>{formatDateTime(tx.createdAt)}</time>
        </p>
        <table>
          <caption class="visually-hidden">Entries of {tx.code}</caption>
          <thead>
            <tr>
              <th scope="col">Account</th>
              <th scope="col" class="num">
                Amount
              </th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {tx.entries.map((entry, index) => (
              <tr key={`${entry.accountId}-${index}`}>
                <td>{accountNames.get(entry.accountId) ?? entry.accountId.slice(0, 8)}</td>
                <td class={`num ${entry.amount < 0 ? "debit" : "credit"}`}>
                  <Money amount={entry.amount} currency={entry.currency} />
                </td>
                <td>{entry.pending ? "pending" : "posted"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </li>
    ))}
  </ul>
)
