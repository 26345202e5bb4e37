import { BalanceResponse } from "@svc/adapters-http/api"
import { Tool } from "effect/ai"
import { callService, readsOnly, ServiceClient, ToolFailure } from "../shared/index.ts"

/** Reads the credential's account balance. */
export const GetBalance = Tool.make("get_balance", {
  description:
    "Read the balance of the credential's account: `posted` (settled), `pending` (held by requests awaiting approval " +
    "or acceptance) and `available` (what can be spent now), all integers in minor units of `currency`. Check " +
    "`available` before asking to spend. Needs spend.read.",
  success: BalanceResponse,
  failure: ToolFailure,
  dependencies: [ServiceClient]
}).annotateMerge(readsOnly)

/** The balance tool's handler. */
export const balanceHandlers = {
  get_balance: () => callService((client) => client.accounts.balance())
}
