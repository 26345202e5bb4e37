import { Toolkit } from "effect/ai"
import {
  CreateCheckoutIntent,
  checkoutHandlers,
  checkoutTestHandlers,
  GetCheckoutIntent,
  IssueCardForIntent,
  SimulateAuthorizationAdvice,
  SimulateCardAuthorization,
  SimulateCardStatus,
  SimulateClearing,
  SimulateRefund
} from "../checkout/index.ts"
import { balanceHandlers, GetBalance } from "../ledger/index.ts"
import {
  CancelSpendRequest,
  CreateSpendRequest,
  EvaluateSpendRequest,
  GetSpendRequest,
  ListSpendRequests,
  spendHandlers
} from "../spend/index.ts"
import { CreateTransfer, GetTransfer, transferHandlers } from "../transfers/index.ts"
import { PayForResource, payHandlers } from "../x402/index.ts"

/** The eleven spend tools an agent gets over MCP, and the five that play the card issuer in test mode. */
export const SpendToolkit = Toolkit.make(
  GetBalance,
  EvaluateSpendRequest,
  CreateSpendRequest,
  GetSpendRequest,
  ListSpendRequests,
  CancelSpendRequest,
  CreateTransfer,
  GetTransfer,
  CreateCheckoutIntent,
  GetCheckoutIntent,
  IssueCardForIntent,
  SimulateCardAuthorization,
  SimulateAuthorizationAdvice,
  SimulateClearing,
  SimulateRefund,
  SimulateCardStatus
)

/** Every tool's handler: one SDK call each, as the caller. */
export const SpendToolkitHandlers = SpendToolkit.toLayer({
  ...balanceHandlers,
  ...spendHandlers,
  ...transferHandlers,
  ...checkoutHandlers,
  ...checkoutTestHandlers
})

/** The tool that fetches and pays over x402, offered by a server beside its agent only (`localRegistrations`). */
export const PayToolkit = Toolkit.make(PayForResource)

/** Its handler. */
export const PayToolkitHandlers = PayToolkit.toLayer(payHandlers)
