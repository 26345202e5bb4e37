import { PortsMemory } from "@svc/adapters-memory"
import { spendBudgetsContract } from "./SpendBudgetsContract.ts"

spendBudgetsContract("in-memory", PortsMemory)
