import { Toolkit } from "effect/ai"
import { CreateCheckoutIntent, checkoutHandlers, IssueCardForIntent } from "../checkout/index.ts"
import { balanceHandlers, GetBalance } from "../ledger/index.ts"
import {
  CancelSpendRequest,
  CreateSpendRequest,
  GetSpendRequest,
  ListSpendRequests,
  spendHandlers
} from "../spend/index.ts"
import { CreateTransfer, transferHandlers } from "../transfers/index.ts"

/** The eight spend tools an agent gets over MCP. */
export const SpendToolkit = Toolkit.make(
  GetBalance,
  CreateSpendRequest,
  GetSpendRequest,
  ListSpendRequests,
  CancelSpendRequest,
  CreateTransfer,
  CreateCheckoutIntent,
  IssueCardForIntent
)

/** Every tool's handler: one SDK call each, as the caller. */
export const SpendToolkitHandlers = SpendToolkit.toLayer({
  ...balanceHandlers,
  ...spendHandlers,
  ...transferHandlers,
  ...checkoutHandlers
})
