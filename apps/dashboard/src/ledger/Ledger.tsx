import { useState } from "preact/hooks"
import { useWorkspace } from "../session/context.ts"
import { type Mode, modeWithData } from "../session/modes.ts"
import { Loading, Money, PageHeader } from "../ui/components.tsx"
import { useLoad } from "../ui/hooks.ts"
import { loadAccounts, namesOf } from "./accounts.ts"
import { SpendChart } from "./SpendChart.tsx"
import { TransactionEntries } from "./TransactionEntries.tsx"

/** Each key's spend in one mode, the mode switched by the reader. */
const SpendPerKey = ({ initial }: { readonly initial: Mode }) => {
  const { client } = useWorkspace()
  const [mode, setMode] = useState<Mode>(initial)
  const stats = useLoad(() => client.treasury.spendStats({ query: { days: 30, mode } }), [client, mode])
  return (
    <>
      <fieldset class="modes">
        <legend>Mode</legend>
        {(["live", "test"] as const).map((m) => (
          <label key={m}>
            <input type="radio" name="mode" value={m} checked={mode === m} onChange={() => setMode(m)} /> {m}
          </label>
        ))}
      </fieldset>
      <Loading loaded={stats.loaded} label="spend per key">
        {(body) => <SpendChart keys={body.keys} />}
      </Loading>
    </>
  )
}

/** Where the money is and where it went: balances, an account's transactions, and spend per key per day. */
export const Ledger = () => {
  const { client } = useWorkspace()
  const [accountId, setAccountId] = useState<string | null>(null)
  const accounts = useLoad(() => loadAccounts(client), [client])
  // Spend per key opens in a mode where something was spent: test keys' spend is not "nothing spent" in live.
  const spendMode = useLoad(
    () =>
      modeWithData((mode) =>
        client.treasury
          .spendStats({ query: { days: 30, mode } })
          .then((body) => body.keys.some((key) => key.usedThisMonth > 0 || key.daily.some((day) => day.amount > 0)))
      ),
    [client]
  )
  const transactions = useLoad(
    () =>
      accountId === null
        ? Promise.resolve([])
        : client.treasury.ledger({ query: { accountId, limit: 50 } }).then((page) => page.data),
    [client, accountId]
  )
  const names = namesOf(accounts.loaded.state === "ready" ? accounts.loaded.value : [])
  const selected = accounts.loaded.state === "ready" ? accounts.loaded.value.find((a) => a.id === accountId) : undefined
  return (
    <>
      <PageHeader title="Ledger">
        Every account's balance, the transactions of an account with their entries, and what each key spent.
      </PageHeader>
      <section aria-labelledby="spend-heading">
        <h2 id="spend-heading">Spend per key, last 30 days</h2>
        <Loading loaded={spendMode.loaded} label="spend per key">
          {(mode) => <SpendPerKey initial={mode} />}
        </Loading>
      </section>
      <section aria-labelledby="accounts-heading">
        <h2 id="accounts-heading">Accounts</h2>
        <Loading loaded={accounts.loaded} label="accounts">
          {(list) => (
            <div class="table-wrap">
              <table class="stack">
                <caption class="visually-hidden">Accounts and balances</caption>
                <thead>
                  <tr>
                    <th scope="col">Account</th>
                    <th scope="col">Mode</th>
                    <th scope="col" class="num">
                      Posted
                    </th>
                    <th scope="col" class="num">
                      Pending
                    </th>
                    <th scope="col" class="num">
                      Available
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((account) => (
                    <tr key={account.id} aria-selected={account.id === accountId}>
                      <th scope="row">
                        <button type="button" class="link" onClick={() => setAccountId(account.id)}>
                          {account.name}
                        </button>
                        <span class="muted"> {account.kind}</span>
                      </th>
                      <td data-label="Mode">{account.mode}</td>
                      <td class="num" data-label="Posted">
                        <Money amount={account.balance.posted} currency={account.currency} />
                      </td>
                      <td class="num" data-label="Pending">
                        <Money amount={account.balance.pending} currency={account.currency} />
                      </td>
                      <td class="num" data-label="Available">
                        <Money amount={account.balance.available} currency={account.currency} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Loading>
      </section>
      {accountId === null ? null : (
        <section aria-labelledby="transactions-heading">
          <h2 id="transactions-heading">Transactions of {selected?.name ?? "the account"}</h2>
          <Loading loaded={transactions.loaded} label="transactions">
            {(list) =>
              list.length === 0 ? (
                <p class="muted">No transactions on this account yet.</p>
              ) : (
                <TransactionEntries transactions={list} accountNames={names} />
              )
            }
          </Loading>
        </section>
      )}
    </>
  )
}
