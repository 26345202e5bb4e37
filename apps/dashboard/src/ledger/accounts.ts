import type { PromiseClient } from "@svc/sdk"

/** The team's ledger accounts (every mode and currency), as the Ledger page lists them. */
export const loadAccounts = (client: PromiseClient) =>
  client.treasury.accounts({ query: { limit: 100 } }).then((page) => page.data)

/** Account names by id. */
export const namesOf = (accounts: ReadonlyArray<{ readonly id: string; readonly name: string }>) =>
  new Map(accounts.map((account) => [account.id, account.name]))
