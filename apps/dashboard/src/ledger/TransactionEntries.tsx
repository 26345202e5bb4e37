import { formatDateTime } from "../format/time.ts"
import { Money } from "../ui/components.tsx"
import { entryState, type LedgerTransaction, movementOf } from "./movements.ts"

/** Ledger transactions with their entries: what each meant, which account, how much (credit positive), held or not. */
export const TransactionEntries = ({
  transactions,
  accountNames
}: {
  readonly transactions: ReadonlyArray<LedgerTransaction>
  readonly accountNames: ReadonlyMap<string, string>
}) => (
  <ul class="transactions" aria-label="Ledger transactions">
    {transactions.map((tx) => {
      const movement = movementOf(tx)
      return (
        <li key={tx.id} class="card">
          <p>
            <strong>{movement}</strong> · <time dateTime={tx.createdAt}>{formatDateTime(tx.createdAt)}</time>
          </p>
          <table>
            <caption class="visually-hidden">Entries of {movement}</caption>
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
                  <td>{accountNames.get(entry.accountId) ?? "Another team's account"}</td>
                  <td class={`num ${entry.amount < 0 ? "debit" : "credit"}`}>
                    <Money amount={entry.amount} currency={entry.currency} />
                  </td>
                  <td>{entryState(entry.pending)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </li>
      )
    })}
  </ul>
)
