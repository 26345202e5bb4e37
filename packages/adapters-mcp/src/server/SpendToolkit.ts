import { Toolkit } from "effect/ai"
import { CreateCheckoutIntent, checkoutHandlers, IssueCardForIntent } from "../checkout/CheckoutTools.ts"
import { balanceHandlers, GetBalance } from "../ledger/BalanceTool.ts"
import {
  CancelSpendRequest,
  CreateSpendRequest,
  GetSpendRequest,
  ListSpendRequests,
  spendHandlers
} from "../spend/SpendTools.ts"
import { CreateTransfer, transferHandlers } from "../transfers/TransferTools.ts"

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
